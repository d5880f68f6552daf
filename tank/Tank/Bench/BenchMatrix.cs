using Tank.Ammo;

namespace Tank.Bench;

/// <summary>
/// What one bench run measures, derived from the catalogue alone: every selected scenario on every
/// architecture that serves its API, then (with <c>--cluster N</c>) the key-value scenarios through
/// node 0 of an N-node cluster of each shardable store; the servers whose CPU the runs account for;
/// the architectures the wrk cross-check visits.
/// </summary>
public sealed record BenchMatrix(
    IReadOnlyList<BenchCell> Cells,
    IReadOnlyList<string> ClusterStores,
    IReadOnlyList<string> ClusterScenarios,
    IReadOnlyList<string> CpuServers,
    IReadOnlyList<CrossCheckTarget> CrossChecks)
{
    /// <summary>The key-value study is asked for by name (or by --cluster): it keeps the default run short.</summary>
    public static IReadOnlyList<string> DefaultScenarios { get; } = Scenarios.Names.Where(s => BenchApi.Of(s) != BenchApi.KeyValue).ToArray();

    /// <summary>
    /// --quick measures fewer cells properly rather than all of them badly: an author read (every
    /// architecture with authors) and a queue write (every queue), within 6 minutes.
    /// </summary>
    public static IReadOnlyList<string> QuickScenarios { get; } = ["author-read", "queue-write"];

    public static IReadOnlyList<string> ClusterScenarioNames { get; } = Scenarios.Names.Where(s => BenchApi.Of(s) == BenchApi.KeyValue).ToArray();

    /// <summary>Every cell, the cluster's after the single node's, as they run.</summary>
    public IEnumerable<BenchCell> AllCells(int nodes) =>
        Cells.Concat(ClusterStores.SelectMany(store => ClusterScenarios.Select(s => new BenchCell(s, store, nodes))));

    public static BenchMatrix Build(IReadOnlyList<CatalogueEntry> catalogue, IReadOnlyList<string>? storages, IReadOnlyList<string>? scenarios, int clusterNodes, bool crossCheck, bool quick = false)
    {
        var chosen = ChooseStorages(catalogue, storages);
        var scenarioNames = scenarios ?? (clusterNodes >= 2 ? ClusterScenarioNames : quick ? QuickScenarios : DefaultScenarios);
        foreach (var name in scenarioNames.Where(n => !Scenarios.Names.Contains(n)))
            throw new TankInputException($"--scenario: unknown scenario '{name}' (known: {string.Join(", ", Scenarios.Names)})");

        var cells = Scenarios.Names.Where(scenarioNames.Contains)
            .SelectMany(s => chosen.Where(a => a.Serve(BenchApi.Of(s))).Select(a => new BenchCell(s, a.Name)))
            .ToList();
        var clusterScenarios = clusterNodes >= 2 ? ClusterScenarioNames.Where(scenarioNames.Contains).ToList() : [];
        var clusterStores = clusterScenarios.Count > 0 ? chosen.Where(a => a.Shardable).Select(a => a.Name).ToList() : [];
        var crossChecks = crossCheck ? chosen.Select(CrossCheckTarget.For).OfType<CrossCheckTarget>().ToList() : [];
        if (cells.Count == 0 && clusterStores.Count == 0)
            throw new TankInputException("no architecture serves the selected scenarios (see 'IntegrationService catalogue')");

        var measured = cells.Select(c => c.Storage).Concat(clusterStores).Concat(crossChecks.Select(c => c.Storage)).ToHashSet();
        var cpuServers = catalogue.Where(a => measured.Contains(a.Name)).SelectMany(a => a.Servers.Concat(a.Caches)).Distinct().ToList();
        return new BenchMatrix(cells, clusterStores, clusterScenarios, cpuServers, crossChecks);
    }

    // Catalogue order; a name may be an alias (redis_aof). No filter: all of them.
    private static List<CatalogueEntry> ChooseStorages(IReadOnlyList<CatalogueEntry> catalogue, IReadOnlyList<string>? names)
    {
        if (names is null) return catalogue.ToList();
        var chosen = new HashSet<string>();
        foreach (var name in names)
        {
            var entry = catalogue.FirstOrDefault(a => a.IsCalled(name))
                ?? throw new TankInputException($"--storage: unknown architecture '{name}' (known: {string.Join(", ", catalogue.Select(a => a.Name))})");
            chosen.Add(entry.Name);
        }
        return catalogue.Where(a => chosen.Contains(a.Name)).ToList();
    }
}
