using Harness.Catalogue;
using Harness.CommandLine;


namespace Crash.Matrix;

/// <summary>
/// Which runs a matrix makes, from the catalogue: every architecture serving each kind (or those
/// named), each with every fault. Nothing here is a list of architectures: a new one in the
/// catalogue is tested without a change here.
/// </summary>
public static class MatrixPlan
{
    /// <param name="storages">Names or aliases; empty: every architecture in the catalogue.</param>
    /// <param name="failoverRepeats">How many runs each failover row, and each power loss of a replicated architecture's every node, gets (their unavailability is a distribution); others get one.</param>
    /// <exception cref="InputException">An unknown architecture, kind or fault, or nothing to run.</exception>
    public static IReadOnlyList<MatrixRow> Build(StorageCatalogue catalogue, IReadOnlyList<string> storages, IReadOnlyList<string> kinds, IReadOnlyList<string> faults,
        int failoverRepeats = 1, IReadOnlyList<string>? only = null)
    {
        if (failoverRepeats < 1) throw new InputException($"--failover-repeats: at least 1, got {failoverRepeats}");
        var entries = storages.Count == 0 ? catalogue.Entries
            : storages.Select(s => catalogue.Find(s) ?? throw new InputException(
                $"--storage: unknown architecture '{s}' (the catalogue has {string.Join(", ", catalogue.Entries.Select(e => e.Name))})")).ToList();
        var kindList = kinds.Select(k => CrashKinds.Parse(k) ?? throw new InputException(
            $"--kind: unknown kind '{k}' ({string.Join(", ", CrashKinds.All.Select(x => x.Name()))})")).ToList();
        var faultList = faults.Select(f => Faults.Find(f) ?? throw new InputException(
            $"--fault: unknown fault '{f}' ({string.Join(", ", Faults.All.Select(x => x.Name))})")).ToList();

        var rows = new List<MatrixRow>();
        foreach (var entry in entries)
        {
            foreach (var kind in kindList.Where(k => entry.Serves.Contains(k.Serves())))
            {
                var truth = catalogue.TruthFor(entry, kind.Serves())?.Name;
                foreach (var fault in faultList.Where(fault => fault.AppliesTo(entry)))
                {
                    var repeats = fault.IsRepeatedOn(entry) ? failoverRepeats : 1;
                    rows.AddRange(Enumerable.Range(1, repeats).Select(k => new MatrixRow(entry, kind, fault, truth) { Repetition = k, Repetitions = repeats }));
                }
            }
        }
        if (only is { Count: > 0 }) rows = Only(catalogue, rows, only);
        if (rows.Count == 0)
            throw new InputException(faultList.All(f => f.Promise == Promise.Failover) && !entries.Any(e => e.Replication is not null)
                ? $"nothing to run: {string.Join(", ", faultList.Select(f => f.Name))} fails over a primary, and none of {string.Join(", ", entries.Select(e => e.Name))} is replicated"
                : $"nothing to run: none of {string.Join(", ", entries.Select(e => e.Name))} serves {string.Join(", ", kindList.Select(k => k.Name()))}");
        return rows;
    }

    /// <summary>
    /// --only: the rows of <paramref name="rows"/> named "architecture kind fault" (an architecture by name or alias), in
    /// the matrix's order, each with its repetitions; an entry that names no row of the matrix is bad input. So one run of
    /// the matrix can hold rows whose faults differ by architecture (script/test: one failover row per replicated one).
    /// </summary>
    private static List<MatrixRow> Only(StorageCatalogue catalogue, List<MatrixRow> rows, IReadOnlyList<string> only)
    {
        var wanted = only.Select(entry =>
        {
            var parts = entry.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length != 3) throw new InputException($"--only: '{entry}' is not 'architecture kind fault'");
            return (Entry: entry, Storage: catalogue.Find(parts[0])?.Name ?? parts[0], Kind: parts[1], Fault: parts[2]);
        }).ToList();
        bool Named(MatrixRow row, (string Entry, string Storage, string Kind, string Fault) w) =>
            row.Storage.Name == w.Storage && row.Kind.Name() == w.Kind && row.Fault.Name == w.Fault;
        foreach (var w in wanted.Where(w => !rows.Any(r => Named(r, w))))
            throw new InputException($"--only: '{w.Entry}' is not a row of this matrix (its rows: {string.Join(", ", rows.Select(r => $"{r.Storage.Name} {r.Kind.Name()} {r.Fault.Name}").Distinct())})");
        return rows.Where(r => wanted.Any(w => Named(r, w))).ToList();
    }
}
