using System.Globalization;
using Tank.Commands;
using Tank.Config;

namespace Tank.Crash;

/// <summary>
/// The validated options of <c>tank crash</c>. <see cref="Parse"/> checks everything before the
/// first request, so bad input fails with a message naming the option (exit code 2).
/// </summary>
public sealed record CrashOptions
{
    /// <summary>The base URL without a trailing slash.</summary>
    public required string Url { get; init; }
    public required string Storage { get; init; }
    public required CrashKind Kind { get; init; }
    /// <summary>Writes per second, evenly spaced.</summary>
    public required double Rate { get; init; }
    public required double Seconds { get; init; }
    /// <summary>Seconds after the start at which the fault command runs.</summary>
    public required double FaultAt { get; init; }
    public required string FaultCommand { get; init; }
    public KeyRange Items { get; init; } = new(1, 2000);
    /// <summary>Location ids 1..Locations exist in the data set; item writes use them.</summary>
    public long Locations { get; init; } = 100_000;
    /// <summary>Blocks of five location ids: the writes of a run can send this × 5 different sets.</summary>
    public long LocationBlocks => Locations / ItemLocations.BlockSize;
    public long TimeoutMs { get; init; } = 3_000;
    public double RecoverSeconds { get; init; } = 60;
    /// <summary>
    /// The architecture behind a cache (postgres for postgres-redis-cache): every acknowledged key is
    /// read once right after its acknowledgement (so the cache holds it) and, after recovery, both
    /// through the tested architecture and through this one; differences are stale cache entries.
    /// </summary>
    public string? TruthStorage { get; init; }
    public required string Out { get; init; }
    public required string Label { get; init; }

    /// <summary>How many writes the timer issues: rate × seconds, rounded down.</summary>
    public long PlannedWrites => (long)Math.Floor(Rate * Seconds + 1e-9);

    public static CrashOptions Parse(CliArgs args)
    {
        if (args.Positional.Count > 0) throw new TankInputException($"crash takes no positional arguments, got '{args.Positional[0]}'");
        var url = ParseUrl(args.Require("url"));
        var storage = args.Require("storage");
        var kind = args.Require("kind") switch
        {
            "author" => CrashKind.Author,
            "item" => CrashKind.Item,
            var other => throw new TankInputException($"--kind must be author or item, got '{other}'"),
        };
        var rate = args.RequireDouble("rate");
        var seconds = args.RequireDouble("seconds");
        var faultAt = args.RequireDouble("fault-at");
        var faultCommand = args.Require("fault-cmd");
        var items = args.Get("items") is { } itemsText ? KeyRange.Parse(itemsText, "--items") : new KeyRange(1, 2000);
        var timeoutMs = args.Get("timeout") is { } timeoutText ? Duration(timeoutText, "timeout") : 3_000;
        var recoverSeconds = args.Double("recover-seconds", 60);
        var locations = args.Long("locations", 100_000);
        var truthStorage = args.Get("truth-storage");
        var output = args.Require("out");
        var label = args.Get("label");
        args.Reject();

        if (rate <= 0) throw new TankInputException($"--rate must be above zero, got {Format(rate)}");
        if (seconds <= 0) throw new TankInputException($"--seconds must be above zero, got {Format(seconds)}");
        if (faultAt < 0 || faultAt >= seconds)
            throw new TankInputException($"--fault-at must be at least 0 and below --seconds ({Format(seconds)}), got {Format(faultAt)}");
        if (locations < ItemLocations.BlockSize) throw new TankInputException($"--locations must be at least {ItemLocations.BlockSize}, got {locations}");
        if (!double.IsFinite(recoverSeconds) || recoverSeconds <= 0)
            throw new TankInputException($"--recover-seconds must be above zero, got {Format(recoverSeconds)}");
        var options = new CrashOptions
        {
            Url = url,
            Storage = storage,
            Kind = kind,
            Rate = rate,
            Seconds = seconds,
            FaultAt = faultAt,
            FaultCommand = faultCommand,
            Items = items,
            Locations = locations,
            TruthStorage = truthStorage is { Length: > 0 } ? truthStorage : null,
            TimeoutMs = timeoutMs,
            RecoverSeconds = recoverSeconds,
            Out = output,
            Label = label is { Length: > 0 } ? label : $"{storage} {kind.ToString().ToLowerInvariant()}",
        };
        if (options.PlannedWrites < 1) throw new TankInputException("--rate × --seconds must plan at least one write");
        var sets = options.LocationBlocks * ItemLocations.BlockSize;
        if (kind == CrashKind.Item && options.PlannedWrites > sets)
            throw new TankInputException($"--rate × --seconds must be at most {sets} for --kind item with --locations {locations} (so that no two writes send the same set), got {options.PlannedWrites}");
        return options;
    }

    private static string ParseUrl(string text)
    {
        if (!Uri.TryCreate(text, UriKind.Absolute, out var uri) || uri.Scheme is not ("http" or "https"))
            throw new TankInputException($"--url: '{text}' is not an absolute http:// or https:// URL");
        return text.TrimEnd('/');
    }

    // The same duration syntax as load.yaml's timeout: 500ms, 3s, 1m.
    private static long Duration(string text, string name)
    {
        try
        {
            return LoadConfigReader.Timeout(text);
        }
        catch (TankInputException e)
        {
            throw new TankInputException($"--{name}: {e.Message}");
        }
    }

    private static string Format(double value) => value.ToString(CultureInfo.InvariantCulture);
}
