using System.Globalization;
using System.Text;
using Tank.Ammo.Keys;
using Tank.Ammo.Workloads;
using Harness.CommandLine;
using IntegrationService.Seeding;

namespace Tank.Ammo;

/// <summary>
/// Produces the requests of a scenario against the service's routes: the Author API's Save/Get
/// (query-string id and storage) and the items API's GET/POST /item/{id}/locations, each request
/// naming its architecture with ?storage=; and the queue routes GET /write/{queue} and
/// GET /read/{queue}, where the architecture is the path segment itself; and the key-value API's
/// PUT and GET /v0/entity?id=key&lt;N&gt; over a key space of <see cref="AmmoOptions.Keys"/> keys.
/// </summary>
public static class AmmoGenerator
{
    /// <summary>
    /// The scenario's requests, or with <see cref="AmmoOptions.Workload"/> that YCSB workload's
    /// operations on the scenario's API. Bad combinations throw before the first request.
    /// </summary>
    public static IEnumerable<(HttpRequestSpec Spec, string Tag)> Generate(AmmoOptions options)
    {
        Validate(options);
        return options.Workload is { } workload ? WorkloadGenerator.Generate(options, workload) : ScenarioRequests(options);
    }

    private static void Validate(AmmoOptions options)
    {
        if (options.Workload is { } workload)
        {
            _ = WorkloadApi.For(options); // throws for a scenario without a workload API
            if (options.Sequential) throw new InputException($"--workload {workload.Name()}: --sequential is a prefill of kv-put alone; a workload picks its keys by --distribution");
            KeyChooser.Create(options.KeyDistributionOr(workload.DefaultDistribution())); // checks the parameters now
            return;
        }
        if (options.Distribution is not { } distribution || distribution == KeyDistribution.Uniform) return;
        var why = options.Scenario switch
        {
            Scenario.AuthorWrite or Scenario.QueueWrite or Scenario.QueueRead or Scenario.QueueMixed => "picks no keys",
            Scenario.ItemRead or Scenario.ItemWrite when options.HotKey => "with --hot-key asks for one item only",
            Scenario.KvPut when options.Sequential => "with --sequential writes every key in order",
            _ => null,
        };
        if (why is not null) throw new InputException($"--distribution {distribution.Name()}: scenario {options.Scenario.Name()} {why}");
        KeyChooser.Create(options.KeyDistributionOr(KeyDistribution.Uniform)); // checks the parameters now
    }

    private static IEnumerable<(HttpRequestSpec Spec, string Tag)> ScenarioRequests(AmmoOptions options)
    {
        var random = new SplitMix64(options.Seed);
        // Uniform draws exactly what the generator drew before distributions existed, so existing ammo is unchanged.
        var keys = KeyChooser.Create(options.KeyDistributionOr(KeyDistribution.Uniform));
        var tag = options.Scenario.Name();
        var storage = Uri.EscapeDataString(options.Storage); // escapes '/' too, so it is safe as a path segment as well
        for (long i = 0; i < options.Count; i++)
        {
            var spec = options.Scenario switch
            {
                Scenario.AuthorWrite => AuthorSave(options, storage, random),
                Scenario.AuthorRead => AuthorGet(options, storage, random, keys),
                Scenario.AuthorMixed => random.Chance(0.9) ? AuthorGet(options, storage, random, keys) : AuthorSave(options, storage, random),
                Scenario.ItemRead => ItemGet(options, storage, random, keys),
                Scenario.ItemWrite => ItemPost(options, storage, random, keys),
                Scenario.QueueWrite => QueueWrite(options, storage),
                Scenario.QueueRead => QueueRead(options, storage),
                Scenario.KvPut => KvPut(options, storage, options.Sequential ? i % options.Keys : keys.Next(random, options.Keys), random),
                Scenario.KvGet => Get($"/v0/entity?id=key{keys.Next(random, options.Keys)}&storage={storage}", options),
                // Strictly write, read, write, read…: the queue stays short, so the reads measure
                // taking a message, not an empty queue and not a queue grown deep. (With an odd
                // count, a runner that loops over the file sends two writes in a row at the seam.)
                _ => i % 2 == 0 ? QueueWrite(options, storage) : QueueRead(options, storage),
            };
            yield return (spec, tag);
        }
    }

    private static HttpRequestSpec AuthorSave(AmmoOptions o, string storage, SplitMix64 random) =>
        Post($"/Author/Save?storage={storage}", o, AuthorBodyFactory.Create(random));

    private static HttpRequestSpec AuthorGet(AmmoOptions o, string storage, SplitMix64 random, KeyChooser keys) =>
        Get($"/Author/Get?id={o.AuthorIdMin + keys.Next(random, o.AuthorIdMax - o.AuthorIdMin + 1)}&storage={storage}", o);

    private static HttpRequestSpec ItemGet(AmmoOptions o, string storage, SplitMix64 random, KeyChooser keys) =>
        Get($"/item/{ItemId(o, random, keys)}/locations?storage={storage}", o);

    // 0–6 distinct location ids, like the seeded data set.
    private static HttpRequestSpec ItemPost(AmmoOptions o, string storage, SplitMix64 random, KeyChooser keys)
    {
        var item = ItemId(o, random, keys);
        var wanted = (int)random.Range(0, Math.Min(6, o.Locations));
        var ids = new SortedSet<long>();
        while (ids.Count < wanted) ids.Add(random.Range(1, o.Locations));
        var body = "{\"LocationIds\":[" + string.Join(",", ids.Select(id => id.ToString(CultureInfo.InvariantCulture))) + "]}";
        return Post($"/item/{item}/locations?storage={storage}", o, Encoding.UTF8.GetBytes(body));
    }

    // A bodiless GET, as the original siege study sent: the service makes up the message.
    private static HttpRequestSpec QueueWrite(AmmoOptions o, string queue) => Get($"/write/{queue}", o);

    private static HttpRequestSpec QueueRead(AmmoOptions o, string queue) => Get($"/read/{queue}", o);

    internal static HttpRequestSpec KvPut(AmmoOptions o, string storage, long key, SplitMix64 random)
    {
        byte[] value;
        if (o.CounterValues)
        {
            value = Encoding.ASCII.GetBytes($"value{key}");
        }
        else
        {
            value = new byte[AmmoOptions.KvValueBytes];
            for (var b = 0; b < value.Length; b += 8) BitConverter.TryWriteBytes(value.AsSpan(b), random.Next());
        }
        return new("PUT", $"/v0/entity?id=key{key}&storage={storage}",
            [new("Content-Type", "application/octet-stream"), new("Host", o.Host)], value);
    }

    private static long ItemId(AmmoOptions o, SplitMix64 random, KeyChooser keys) =>
        o.HotKey ? AmmoOptions.HotItemId : 1 + keys.Next(random, o.Items);

    internal static HttpRequestSpec Get(string uri, AmmoOptions o) =>
        new("GET", uri, [new("Host", o.Host)], []);

    internal static HttpRequestSpec Post(string uri, AmmoOptions o, byte[] body) =>
        new("POST", uri, [new("Content-Type", "application/json"), new("Host", o.Host)], body);
}
