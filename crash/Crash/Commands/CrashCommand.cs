using System.CommandLine;
using Tank.Commands;
using Harness.CommandLine;
using Tank.Runner;

namespace Crash.Commands;

/// <summary>
/// <c>crash run</c>: one run of a crash-durability test. Writes at a fixed rate, runs the fault
/// command in the middle, reads every acknowledged key back and reports what was lost (see
/// crash/README.md). Prints one summary line on stdout and writes <c>--out</c>.
/// </summary>
public sealed class CrashCommand : Command
{
    private readonly Option<string> _url = CliOption.Create("--url", "The service's base URL", ValueParsers.HttpUrl, "url").Require();
    private readonly Option<string> _storage = CliOption.Create("--storage", "The architecture under test (?storage=)", ValueParsers.NonEmpty, "name").Require();
    private readonly Option<CrashKind> _kind = CliOption.Create("--kind", "author: saves and updates of authors; item: location sets of items; queue: messages, read back by consumers and a drain (GET /read); queue-leased: the same read with leases, acknowledged once logged; kv: key-value PUTs",
        ValueParsers.Choice([.. CrashKinds.All.Select(k => k.Name())], t => CrashKinds.Parse(t)!.Value), "author|item|queue|queue-leased|kv").Require();
    private readonly Option<double> _rate = CliOption.Create("--rate", "Writes per second, evenly spaced", ValueParsers.PositiveNumber, "per-second").Require();
    private readonly Option<double> _seconds = CliOption.Create("--seconds", "How long the writes go on", ValueParsers.PositiveNumber, "seconds").Require();
    private readonly Option<double> _faultAt = CliOption.Create("--fault-at", "When the fault command runs, in seconds from the start (below --seconds)",
        ValueParsers.NonNegativeNumber, "seconds").Require();
    private readonly Option<string> _faultCmd = CliOption.Create("--fault-cmd", "The fault, run with /bin/bash -c beside the writers", ValueParsers.NonEmpty, "command").Require();
    private readonly Option<string> _out = CliOption.Create("--out", "The result file (JSON)", ValueParsers.NonEmpty, "file").Require();
    private readonly Option<KeyRange> _items = CliOption.Create("--items", "The item ids written (--kind item)", ValueParsers.KeyRange, "A-B").WithDefault(new KeyRange(1, 2000));
    private readonly Option<long> _locations = CliOption.Create("--locations", "Location ids 1..N exist; item writes send sets of them",
        ValueParsers.WholeNumber(min: ItemLocations.BlockSize), "n").WithDefault(100_000);
    private readonly Option<string?> _truthStorage = CliOption.Create<string?>("--truth-storage", "The store behind a cache: every key is also read through it, differences are stale entries",
        ValueParsers.Text, "name");
    private readonly Option<long?> _timeout = CliOption.Create("--timeout", "Per-request timeout: 500ms, 3s, 1m (default 3s)", ValueParsers.Duration.Optional(), "duration");
    private readonly Option<double> _recoverSeconds = CliOption.Create("--recover-seconds", "How long to wait for the API before the run, for the fault command, and for the read-back",
        ValueParsers.PositiveNumber, "seconds").WithDefault(60);
    private readonly Option<double> _sloMs = CliOption.Create("--slo-ms", "The p99 the timeline's recovery is measured against (default 10, the bench's)", ValueParsers.PositiveNumber, "ms").WithDefault(10);
    private readonly Option<string?> _label = CliOption.Create<string?>("--label", "The run's name in the summary (default: storage and kind)", ValueParsers.Text, "text");

    public CrashCommand() : base("run", "A crash-durability test: writes at --rate for --seconds, runs --fault-cmd at --fault-at, reads every acknowledged key back; exits 0 (data lost or not), 1 if the API never answered, 2 on bad input")
    {
        foreach (var option in new Option[] { _url, _storage, _kind, _rate, _seconds, _faultAt, _faultCmd, _out, _items, _locations, _truthStorage, _timeout, _recoverSeconds, _label, _sloMs })
            Add(option);
        SetAction(Run);
    }

    /// <summary>The options of a parsed <c>crash run</c> command line, checked together; nothing is sent.</summary>
    public CrashOptions CrashOptionsOf(ParseResult parse)
    {
        var storage = parse.GetRequiredValue(_storage);
        var kind = parse.GetRequiredValue(_kind);
        var truthStorage = parse.GetValue(_truthStorage);
        var label = parse.GetValue(_label);
        return new CrashOptions
        {
            Url = parse.GetRequiredValue(_url),
            Storage = storage,
            Kind = kind,
            Rate = parse.GetRequiredValue(_rate),
            Seconds = parse.GetRequiredValue(_seconds),
            FaultAt = parse.GetRequiredValue(_faultAt),
            FaultCommand = parse.GetRequiredValue(_faultCmd),
            Items = parse.GetRequiredValue(_items),
            Locations = parse.GetRequiredValue(_locations),
            TruthStorage = truthStorage is { Length: > 0 } ? truthStorage : null,
            TimeoutMs = parse.GetValue(_timeout) ?? 3_000,
            RecoverSeconds = parse.GetRequiredValue(_recoverSeconds),
            SloMs = parse.GetRequiredValue(_sloMs),
            Out = parse.GetRequiredValue(_out),
            Label = label is { Length: > 0 } ? label : $"{storage} {kind.Name()}",
        }.Validated();
    }

    /// <summary>One run of any kind: the result (null if the API was not up before it) and the exit code.</summary>
    internal static async Task<(RunResult? Result, int ExitCode)> Execute(CrashOptions options)
    {
        if (options.Kind.IsQueue()) return await new Queue.QueueCrashTest(options).RunAsync().ConfigureAwait(false);
        return await new CrashTest(options).RunAsync().ConfigureAwait(false);
    }

    private int Run(ParseResult parse)
    {
        var options = CrashOptionsOf(parse);
        var output = Path.GetFullPath(options.Out);
        // Fail on an unwritable --out before the run, not after it.
        Directory.CreateDirectory(Path.GetDirectoryName(output)!);
        var (result, exitCode) = Execute(options).GetAwaiter().GetResult();
        if (result is null) return exitCode;
        result.Write(output);
        Console.WriteLine(result.Summary());
        Console.Error.WriteLine($"crash: exit code {exitCode}; result in {output}");
        return exitCode;
    }
}
