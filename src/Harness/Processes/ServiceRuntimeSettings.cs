namespace Harness.Processes;

/// <summary>
/// The runtime settings the service runs with (<c>runtime.env</c> beside its DLL, from
/// IntegrationService/runtime.env): environment variables the runtime reads at start and
/// runtimeconfig.json cannot carry, such as the GC's gen0 budget. One <c>NAME=value</c> per line;
/// blank lines and lines starting with <c>#</c> are skipped.
/// </summary>
public static class ServiceRuntimeSettings
{
    public const string FileName = "runtime.env";

    /// <summary>The settings beside <paramref name="serviceDll"/>; none when it has no runtime.env (a build from before the file).</summary>
    /// <exception cref="FormatException">A line is not <c>NAME=value</c>; the message names the file and the line.</exception>
    public static IReadOnlyList<KeyValuePair<string, string>> Read(string serviceDll)
    {
        var file = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(serviceDll))!, FileName);
        return File.Exists(file) ? Parse(File.ReadAllLines(file), file) : [];
    }

    public static IReadOnlyList<KeyValuePair<string, string>> Parse(IEnumerable<string> lines, string source)
    {
        var settings = new List<KeyValuePair<string, string>>();
        var number = 0;
        foreach (var raw in lines)
        {
            number++;
            var line = raw.Trim();
            if (line.Length == 0 || line.StartsWith('#')) continue;
            var equals = line.IndexOf('=');
            var name = equals > 0 ? line[..equals] : "";
            if (name.Length == 0 || !name.All(c => char.IsAsciiLetterOrDigit(c) || c == '_') || char.IsAsciiDigit(name[0]))
                throw new FormatException($"{source}:{number}: '{raw}' is not NAME=value");
            settings.Add(new(name, line[(equals + 1)..]));
        }
        return settings;
    }
}
