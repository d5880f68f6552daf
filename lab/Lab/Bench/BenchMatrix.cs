using Harness.Catalogue;
using Tank.Ammo;
using Harness.CommandLine;
using Tank.Ammo.Workloads;
using IntegrationService.Http;

namespace Lab.Bench;

/// <summary>
/// What one bench run measures, derived from the catalogue alone: every selected scenario on every
/// architecture that serves its API, then (with <c>--cluster N</c>) the key-value scenarios through
/// node 0 of an N-node cluster of each shardable store; the servers whose CPU the runs account for;
/// the architectures the wrk cross-check visits.
/// </summary>
public sealed partial record BenchMatrix(
    IReadOnlyList<BenchCell> Cells,
    IReadOnlyList<string> ClusterStores,
    IReadOnlyList<Scenario> ClusterScenarios,
    IReadOnlyList<string> CpuServers,
    IReadOnlyList<CrossCheckTarget> CrossChecks)
{
    /// <summary>
    /// The profile's <c>leave_out</c> entries that name an architecture this catalogue does not offer (a deployment
    /// without it: on AWS no nats-r3): nothing of theirs is measured, so nothing is left out; the run says so.
    /// </summary>
    public IReadOnlyList<string> LeaveOutAbsent { get; init; } = [];

    /// <summary>The profile's <c>also_run</c> entries that name an architecture this catalogue does not offer: nothing of theirs is added; the run says so.</summary>
    public IReadOnlyList<string> AlsoRunAbsent { get; init; } = [];

    /// <summary>
    /// The default run: fewer cells measured well rather than many measured badly, three independent
    /// repetitions of each within an hour on two cores: author reads and writes and queue writes, a
    /// write only once per server and durability (<see cref="RepeatsAnEarlierWrite"/>), and without the
    /// profile's <c>leave_out</c> cells, with its <c>also_run</c> cells (<see cref="ProfileCells"/>: the brokers' queue
    /// reads, beside their writes). Asked for by
    /// name: item-read and item-write (<c>--scenario item-read,item-write</c>: the original Go study,
    /// the same operations as the author cells, a read by primary key and an insert, on another
    /// layout; postgres-redis-persistent serves only items), queue-read (the brokers' reads go
    /// through the service's one-message adapter for now, and each cell refills its queue before
    /// every repetition), the key-value study (or --cluster), the mixed scenarios (each a 90/10 blend
    /// of a read and a write cell) and the zipfian author reads (with <c>--scenario author-read</c>).
    /// docs/OPERATIONS.md has the times measured.
    /// </summary>
    public static IReadOnlyList<Scenario> DefaultScenarios { get; } =
        Enum.GetValues<Scenario>().Where(s => s.Api() is StorageApi.Author or StorageApi.Queue && !s.IsMixed() && s != Scenario.QueueRead).ToArray();

    /// <summary>
    /// --quick measures fewer cells properly rather than all of them badly: an author read (every
    /// architecture with authors) and a queue write (every queue but those quick.yaml's leave_out
    /// names, the three-node ones), within 6 minutes.
    /// </summary>
    public static IReadOnlyList<Scenario> QuickScenarios { get; } = [Scenario.AuthorRead, Scenario.QueueWrite];

    public static IReadOnlyList<Scenario> ClusterScenarioNames { get; } = Enum.GetValues<Scenario>().Where(s => s.Api() == StorageApi.KeyValue).ToArray();

    /// <summary>
    /// The servers the item data set is seeded into (<c>IntegrationService seed --only</c>, whose
    /// backends are named as script/services names their servers): those of the architectures with an
    /// item cell; none when the run has no item cell.
    /// </summary>
    public IReadOnlyList<string> SeedBackends(IReadOnlyList<StorageDescription> catalogue) =>
        catalogue.Where(a => Cells.Any(c => c.Storage == a.Name && c.Scenario.Api() == StorageApi.Item))
            .SelectMany(a => a.Servers.Concat(a.Caches)).Distinct().ToList();

    /// <summary>
    /// The settings the run's service starts with: its readiness (<c>/health</c>) covers the
    /// architectures the run measures on it (<c>Storage:ReadyArchitectures</c>), whose servers are the
    /// only ones script/bench started; none when it measures none (a cluster's nodes are their own).
    /// </summary>
    public IReadOnlyList<string> ServiceArguments =>
        Cells.Select(c => c.Storage).Concat(CrossChecks.Select(c => c.Storage)).Distinct().ToList() is { Count: > 0 } measured
            ? [$"--Storage:ReadyArchitectures={string.Join(',', measured)}"]
            : [];

    /// <summary>Every cell, the cluster's after the single node's, as they run.</summary>
    public IEnumerable<BenchCell> AllCells(int nodes) =>
        Cells.Concat(ClusterStores.SelectMany(store => ClusterScenarios.Select(s => new BenchCell(s, store, nodes))));

    /// <summary>The scenarios that pick keys, the ones a key distribution applies to.</summary>
    public static IReadOnlyList<Scenario> KeyedScenarios { get; } =
        [Scenario.AuthorRead, Scenario.AuthorMixed, Scenario.ItemRead, Scenario.ItemWrite, Scenario.KvPut, Scenario.KvGet];

    public static BenchMatrix Build(IReadOnlyList<StorageDescription> catalogue, IReadOnlyList<string>? storages, IReadOnlyList<string>? scenarios, int clusterNodes, bool crossCheck, bool quick = false,
        string? workload = null, string? distribution = null, IReadOnlyList<string>? leaveOut = null, IReadOnlyList<string>? alsoRun = null)
    {
        var leftOut = ProfileCells(catalogue, leaveOut ?? [], "leave_out", out var absent);
        var added = ProfileCells(catalogue, alsoRun ?? [], "also_run", out var addedAbsent);
        if (workload is not null)
        {
            // The workload sets the mix on each API it knows: authors through author-read's ids, key-value pairs over kv-get's prefilled keys.
            var served = ChooseStorages(catalogue, storages);
            var workloadCells = served.SelectMany(a => new[] { Scenario.AuthorRead, Scenario.KvGet }
                    .Where(s => a.Serve(s.Api())).Select(s => new BenchCell(s, a.Name) { Workload = workload, Distribution = distribution }))
                .OrderBy(c => c.Scenario.Name(), StringComparer.Ordinal).ToList();
            if (workloadCells.Count == 0) throw new InputException($"--workload {workload}: no selected architecture serves authors or key-value pairs");
            var workloadServers = catalogue.Where(a => workloadCells.Any(c => c.Storage == a.Name)).SelectMany(a => a.Servers.Concat(a.Caches)).Distinct().ToList();
            return new BenchMatrix(workloadCells, [], [], workloadServers, []);
        }
        var chosen = ChooseStorages(catalogue, storages);
        foreach (var name in (scenarios ?? []).Where(n => !Scenarios.Names.Contains(n)))
            throw new InputException($"--scenario: unknown scenario '{name}' (known: {string.Join(", ", Scenarios.Names)})");
        var selected = scenarios?.Select(Scenarios.Parse).ToList() ?? (clusterNodes >= 2 ? ClusterScenarioNames : quick ? QuickScenarios : DefaultScenarios);

        var cells = Enum.GetValues<Scenario>().Where(selected.Contains)
            .SelectMany(s => chosen.Where(a => a.Serve(s.Api()) && (scenarios is not null || !(RepeatsAnAuthorCell(s, a) || RepeatsAnEarlierWrite(s, a, chosen) || RepeatsAnEarlierRead(s, a, chosen))))
                .Select(a => new BenchCell(s, a.Name) { Distribution = KeyedScenarios.Contains(s) ? distribution : null }))
            .Where(c => !LeavesOut(storages, scenarios, null, clusterNodes) || !leftOut.Contains((c.Storage, c.Scenario)))
            .ToList();
        if (LeavesOut(storages, scenarios, null, clusterNodes))
        {
            foreach (var (storage, scenario) in added)
            {
                if (!chosen.First(a => a.Name == storage).Serve(scenario.Api()))
                    throw new InputException($"also_run: {storage} does not serve {scenario.Name()}");
                if (!cells.Any(c => c.Storage == storage && c.Scenario == scenario) && !leftOut.Contains((storage, scenario)))
                    cells.Add(new BenchCell(scenario, storage));
            }
            // Scenario order, then catalogue order, as if the scenario had been asked for.
            var position = chosen.Select((a, i) => (a.Name, i)).ToDictionary(x => x.Name, x => x.i);
            cells = cells.OrderBy(c => c.Scenario).ThenBy(c => position[c.Storage]).ToList();
        }
        // A cache's benefit depends on skew: author-read asked for by name also runs with zipfian keys on every selected
        // architecture with a cache and on those with the same servers and none (postgres-redis-cache and postgres).
        if (scenarios is not null && selected.Contains(Scenario.AuthorRead) && distribution is null && !quick && clusterNodes < 2)
        {
            var cached = chosen.Where(a => a.Caches.Length > 0 && a.Serve(StorageApi.Author)).ToList();
            var uncached = chosen.Where(a => a.Caches.Length == 0 && a.Serve(StorageApi.Author) && cached.Any(c => c.Servers.SequenceEqual(a.Servers)));
            cells.AddRange(uncached.Concat(cached).Select(a => new BenchCell(Scenario.AuthorRead, a.Name) { Distribution = "zipfian" }));
        }
        var clusterScenarios = clusterNodes >= 2 ? ClusterScenarioNames.Where(selected.Contains).ToList() : [];
        var clusterStores = clusterScenarios.Count > 0 ? chosen.Where(a => a.Shardable).Select(a => a.Name).ToList() : [];
        var crossChecks = crossCheck ? chosen.Select(CrossCheckTarget.For).OfType<CrossCheckTarget>().ToList() : [];
        if (cells.Count == 0 && clusterStores.Count == 0)
            throw new InputException("no architecture serves the selected scenarios (see 'IntegrationService catalogue')");

        var measured = cells.Select(c => c.Storage).Concat(clusterStores).Concat(crossChecks.Select(c => c.Storage)).ToHashSet();
        var cpuServers = catalogue.Where(a => measured.Contains(a.Name)).SelectMany(a => a.Servers.Concat(a.Caches)).Distinct().ToList();
        return new BenchMatrix(cells, clusterStores, clusterScenarios, cpuServers, crossChecks) { LeaveOutAbsent = absent, AlsoRunAbsent = addedAbsent };
    }

    /// <summary>
    /// The profile's <c>leave_out</c> ("architecture scenario" per entry): cells the default run
    /// (<see cref="LeavesOut"/>: no --storage, --scenario, --workload or --cluster) leaves out to stay
    /// within its hour; naming the architecture or the scenario runs them. An entry naming no known
    /// cell is bad input, but for one naming an architecture that this catalogue does not offer
    /// (<see cref="LeaveOutAbsent"/>): the profile is the project's, the deployment may lack a replicated
    /// architecture, and what is not there is not measured anyway.
    /// </summary>
    public static bool LeavesOut(IReadOnlyList<string>? storages, IReadOnlyList<string>? scenarios, string? workload, int clusterNodes) =>
        storages is null && scenarios is null && workload is null && clusterNodes < 2;

    /// <remarks>The profile's <c>also_run</c> is read the same way: cells the default run adds to its scenarios (the
    /// brokers' queue reads, side by side with their writes), unless <c>leave_out</c> names them too.</remarks>
    public static HashSet<(string Storage, Scenario Scenario)> ProfileCells(IReadOnlyList<StorageDescription> catalogue, IReadOnlyList<string> entries, string key, out List<string> absent)
    {
        var cells = new HashSet<(string, Scenario)>();
        absent = [];
        foreach (var entry in entries)
        {
            var parts = entry.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length != 2 || !Scenarios.Names.Contains(parts[1]) || !ArchitectureName().IsMatch(parts[0]))
                throw new InputException($"{key}: '{entry}' is not 'architecture scenario' (scenarios: {string.Join(", ", Scenarios.Names)}; this catalogue's architectures: {string.Join(", ", catalogue.Select(a => a.Name))})");
            if (catalogue.FirstOrDefault(a => a.IsCalled(parts[0])) is not { } architecture)
            {
                absent.Add(entry);
                continue;
            }
            cells.Add((architecture.Name, Scenarios.Parse(parts[1])));
        }
        return cells;
    }

    // An architecture's name as the catalogue spells them (aliases with '_' too): lower-case words joined by '-'.
    [System.Text.RegularExpressions.GeneratedRegex("^[a-z0-9]+([-_][a-z0-9]+)*$")]
    private static partial System.Text.RegularExpressions.Regex ArchitectureName();

    /// <summary>
    /// An item read or write where the same architecture serves authors repeats the author cell's
    /// measurement (a read by primary key, an insert, on the same servers): the default run leaves
    /// it out and measures items only where authors are not served; <c>--scenario</c> runs them all.
    /// </summary>
    public static bool RepeatsAnAuthorCell(Scenario scenario, StorageDescription architecture) =>
        scenario.Api() == StorageApi.Item && architecture.Serve(StorageApi.Author);

    /// <summary>
    /// A write on an architecture with the same servers, caches and stated durability as one before
    /// it in the run (tarantool-vinyl after tarantool-memtx: both engines acknowledge a write once
    /// the same Tarantool write-ahead log has it) repeats that one's write cell: the default run
    /// leaves it out; <c>--scenario</c> or <c>--storage</c> without the earlier one runs it.
    /// </summary>
    public static bool RepeatsAnEarlierWrite(Scenario scenario, StorageDescription architecture, IReadOnlyList<StorageDescription> chosen) =>
        // Not kv-put: the key-value study compares each store's one node with its own cluster.
        scenario is not Scenario.KvPut && SameWritesAs(scenario, architecture.Name, chosen).Any();

    /// <summary>
    /// An author read on an architecture with the same servers and caches as one before it in the run
    /// (tarantool-vinyl after tarantool-memtx, one Tarantool) repeats that one's read cell on the
    /// default data set: its 100 000 authors fit vinyl's cache, so the two cells' confirmed rates
    /// overlap. The default run leaves it out (its 100 s kept the run under
    /// 45 minutes); <c>--scenario</c>, or <c>--storage</c> without the earlier one, runs it.
    /// </summary>
    public static bool RepeatsAnEarlierRead(Scenario scenario, StorageDescription architecture, IReadOnlyList<StorageDescription> chosen) =>
        scenario == Scenario.AuthorRead && chosen.TakeWhile(a => a.Name != architecture.Name)
            .Any(a => a.Serve(StorageApi.Author) && a.Servers.SequenceEqual(architecture.Servers) && a.Caches.SequenceEqual(architecture.Caches));

    /// <summary>The architectures whose write cell of <paramref name="scenario"/> stands for this one's (<see cref="StorageCatalogue.SameWritesAs"/>).</summary>
    public static IEnumerable<string> SameWritesAs(Scenario scenario, string architecture, IReadOnlyList<StorageDescription> catalogue) =>
        scenario.IsWrite() ? new StorageCatalogue(catalogue).SameWritesAs(scenario.Api(), architecture) : [];

    // Catalogue order; a name may be an alias (redis_aof). No filter: all of them.
    private static List<StorageDescription> ChooseStorages(IReadOnlyList<StorageDescription> catalogue, IReadOnlyList<string>? names)
    {
        if (names is null) return catalogue.ToList();
        var chosen = new HashSet<string>();
        foreach (var name in names)
        {
            var entry = catalogue.FirstOrDefault(a => a.IsCalled(name))
                ?? throw new InputException($"--storage: unknown architecture '{name}' (known: {string.Join(", ", catalogue.Select(a => a.Name))})");
            chosen.Add(entry.Name);
        }
        return catalogue.Where(a => chosen.Contains(a.Name)).ToList();
    }
}
