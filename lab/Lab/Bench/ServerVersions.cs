using System.Text.RegularExpressions;
using Harness.Processes;

namespace Lab.Bench;

/// <summary>
/// The versions of the server programs and of .NET, for environment.json: each program's own
/// version output, the version number taken from it. A program not installed is left out.
/// </summary>
public static partial class ServerVersions
{
    [GeneratedRegex(@"v?=?(?<version>[0-9]+\.[0-9]+[0-9A-Za-z.\-]*)")]
    private static partial Regex Version();

    private static readonly (string Name, string Program, string Arg)[] Probes =
    [
        ("postgresql", "psql", "--version"),
        ("tarantool", "tarantool", "--version"),
        ("redis", "redis-server", "--version"),
        ("beanstalkd", "beanstalkd", "-v"),
        (".net", "dotnet", "--version"),
    ];

    public static IEnumerable<KeyValuePair<string, string>> Detect(CancellationToken cancel)
    {
        foreach (var (name, program, arg) in Probes)
        {
            if (!ProcessRunner.OnPath(program)) continue;
            var result = ProcessRunner.Run(program, [arg], cancel);
            if (Of(result.Output.Split('\n')[0]) is { } version) yield return KeyValuePair.Create(name, version);
        }
    }

    /// <summary>The first version number of a version line (<c>Redis server v=7.0.15 sha=…</c> → 7.0.15).</summary>
    public static string? Of(string line) => Version().Match(line) is { Success: true } m ? m.Groups["version"].Value : null;
}
