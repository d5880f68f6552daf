namespace Crash.Tests;

/// <summary>
/// The runs against <see cref="FakeApi"/> go one at a time: each is timed (writes at 100/s, a fault
/// at 0.8 s), and two at once on a small machine make the fake API answer late.
/// </summary>
[CollectionDefinition(Name)]
public sealed class FakeApiRuns
{
    public const string Name = "runs against the fake API";
}
