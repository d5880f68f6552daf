using System.Text.RegularExpressions;
using Tank.Commands;
using Harness.CommandLine;

namespace Tank.Tests.Ammo;

/// <summary>Runs <c>tank ammo</c> into a temporary file and reads back what the tests count: keys and tags.</summary>
public static partial class AmmoFile
{
    [GeneratedRegex(@"id=key(\d+)&")]
    private static partial Regex KvKey();

    [GeneratedRegex(@"^\d+ (?<tag>[a-z-]+)$", RegexOptions.Multiline)]
    private static partial Regex PhantomTag();

    [GeneratedRegex(@"^(?<method>GET|PUT|POST) ", RegexOptions.Multiline)]
    private static partial Regex Method();

    /// <summary>The file's text; the command must exit 0.</summary>
    public static string Write(params string[] args)
    {
        var dir = Directory.CreateTempSubdirectory("tank-ammo-").FullName;
        try
        {
            var file = Path.Combine(dir, "ammo");
            var error = new StringWriter();
            Assert.True(TankCli.Run(["ammo", .. args, "--out", file], TextWriter.Null, error) == 0, error.ToString());
            return File.ReadAllText(file);
        }
        finally { Directory.Delete(dir, recursive: true); }
    }

    public static int[] KvKeys(string ammo) => KvKey().Matches(ammo).Select(m => int.Parse(m.Groups[1].Value)).ToArray();

    public static string[] Tags(string ammo) => PhantomTag().Matches(ammo).Select(m => m.Groups["tag"].Value).ToArray();

    public static string[] Methods(string ammo) => Method().Matches(ammo).Select(m => m.Groups["method"].Value).ToArray();

    /// <summary>The share of all requests that the hottest <paramref name="hotShare"/> of <paramref name="keySpace"/> keys got.</summary>
    public static double TopShare(int[] keys, long keySpace, double hotShare)
    {
        var top = (int)(keySpace * hotShare);
        return (double)keys.GroupBy(k => k).Select(g => g.Count()).OrderDescending().Take(top).Sum() / keys.Length;
    }
}
