using System.Globalization;

namespace Tank.Commands;

/// <summary>
/// Minimal <c>--name value</c> parser: positional arguments, repeatable options, flags.
/// Every option name is checked by the command via <see cref="Reject"/> so typos fail loudly.
/// </summary>
public sealed class CliArgs
{
    private readonly Dictionary<string, List<string>> _options = new(StringComparer.Ordinal);
    private readonly HashSet<string> _used = new(StringComparer.Ordinal);

    public List<string> Positional { get; } = [];

    public static CliArgs Parse(string[] args)
    {
        var result = new CliArgs();
        for (var i = 0; i < args.Length; i++)
        {
            if (!args[i].StartsWith("--", StringComparison.Ordinal)) { result.Positional.Add(args[i]); continue; }
            var name = args[i][2..];
            var value = i + 1 < args.Length && !args[i + 1].StartsWith("--", StringComparison.Ordinal) ? args[++i] : "";
            if (!result._options.TryGetValue(name, out var list)) result._options[name] = list = [];
            list.Add(value);
        }
        return result;
    }

    public string? Get(string name)
    {
        _used.Add(name);
        return _options.TryGetValue(name, out var list) ? list[^1] : null;
    }

    public string Require(string name) =>
        Get(name) is { Length: > 0 } value ? value : throw new TankInputException($"--{name} is required");

    public bool Flag(string name) => Get(name) is not null;

    public IReadOnlyList<string> All(string name)
    {
        _used.Add(name);
        return _options.TryGetValue(name, out var list) ? list : [];
    }

    public long Long(string name, long fallback)
    {
        var text = Get(name);
        if (text is null) return fallback;
        return long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value)
            ? value
            : throw new TankInputException($"--{name}: '{text}' is not a whole number");
    }

    public double Double(string name, double fallback)
    {
        var text = Get(name);
        if (text is null) return fallback;
        return double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && double.IsFinite(value)
            ? value
            : throw new TankInputException($"--{name}: '{text}' is not a number");
    }

    /// <summary>A required number (finite).</summary>
    public double RequireDouble(string name)
    {
        Require(name);
        return Double(name, 0);
    }

    /// <summary>Fails on any option the command never asked about (call after reading them all).</summary>
    public void Reject()
    {
        var unknown = _options.Keys.Where(k => !_used.Contains(k)).ToList();
        if (unknown.Count > 0) throw new TankInputException($"unknown option --{unknown[0]}");
    }
}
