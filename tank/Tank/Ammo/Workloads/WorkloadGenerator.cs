using IntegrationService.Seeding;

namespace Tank.Ammo.Workloads;

/// <summary>
/// Writes a YCSB workload's operations as shots on the scenario's API, each tagged with its
/// operation (<c>read</c>, <c>update</c>, <c>insert</c>, and <c>rmw-read</c> + <c>rmw-update</c>
/// for the two shots of a read-modify-write) so phout and the report can split by operation.
/// --count counts shots; a read-modify-write that would overshoot it is sent as a plain read.
/// </summary>
public static class WorkloadGenerator
{
    public static IEnumerable<(HttpRequestSpec Spec, string Tag)> Generate(AmmoOptions options, Workload workload)
    {
        var api = WorkloadApi.For(options);
        var random = new SplitMix64(options.Seed);
        var keys = Keys.KeyChooser.Create(options.KeyDistributionOr(workload.DefaultDistribution()));
        for (long shots = 0; shots < options.Count;)
        {
            var operation = workload.Pick(random);
            if (operation == Operation.ReadModifyWrite && shots + 1 == options.Count) operation = Operation.Read;
            switch (operation)
            {
                case Operation.Read:
                    yield return (api.Read(keys.Next(random, api.KeyCount)), "read");
                    shots++;
                    break;
                case Operation.Update:
                    yield return (api.Update(keys.Next(random, api.KeyCount), random), "update");
                    shots++;
                    break;
                case Operation.Insert:
                    yield return (api.Insert(random), "insert");
                    shots++;
                    break;
                default:
                    var key = keys.Next(random, api.KeyCount);
                    yield return (api.Read(key), "rmw-read");
                    yield return (api.Update(key, random), "rmw-update");
                    shots += 2;
                    break;
            }
        }
    }
}
