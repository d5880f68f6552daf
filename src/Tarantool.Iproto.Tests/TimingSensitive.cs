namespace Tarantool.Iproto.Tests;

/// <summary>
/// Tests that count pings or measure deadlines run alone: next to ten thousand concurrent requests
/// on two cores their timer callbacks come late and the counts become noise.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class TimingSensitive
{
    public const string Name = "timing-sensitive";
}
