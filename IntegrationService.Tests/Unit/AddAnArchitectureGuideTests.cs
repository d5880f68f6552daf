using System.Reflection;
using System.Runtime.CompilerServices;
using System.Text.RegularExpressions;
using IntegrationService.Tests.Contract;
using IntegrationService.Tests.Fixtures;
using IntegrationService.Tests.Outages;
using IntegrationService.Tests.Queues;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// docs/ARCHITECTURE.md's "add a storage architecture" guide, held against the catalogue: for every
/// architecture the service registers, each thing the guide asks for is there. A new architecture
/// that skips a step fails here with the step's number, before any reader finds the gap.
/// </summary>
public sealed class AddAnArchitectureGuideTests
{
    private static readonly Dictionary<string, Type> ContractOf = new()
    {
        ["Author"] = typeof(AuthorApiContract),
        ["Item"] = typeof(ItemApiContract),
        ["Queue"] = typeof(QueueApiContract),
        ["KeyValue"] = typeof(KvApiContract),
    };

    [Fact]
    public void TheGuideHasTheStepsThisTestChecks()
    {
        var guide = File.ReadAllText(Path.Combine(RepositoryRoot.Path, "docs", "ARCHITECTURE.md"));
        var section = guide[guide.IndexOf("### add a storage architecture", StringComparison.Ordinal)..];
        foreach (var mention in new[] { "Architectures.cs", "StorageArchitecture", "ALL_SERVERS", "script/services", "ApiContract", "OutageTests", "QueueExactlyOnceTests", "TestServers" })
            Assert.Contains(mention, section);
    }

    [Fact]
    public async Task EveryApiAnArchitectureServesHasItsContractSuite()
    {
        var suites = typeof(AuthorApiContract).Assembly.GetTypes()
            .Where(t => t is { IsSealed: true, IsAbstract: false } && ContractOf.Values.Any(c => c.IsAssignableFrom(t)))
            .Select(t => (Api: ContractOf.Single(c => c.Value.IsAssignableFrom(t)).Key, Storage: StorageOf(t)))
            .ToHashSet();

        var missing = (await StoragesDescriptionTests.StoragesAsync([]))
            .SelectMany(s => s.Serves.Select(api => (Api: api, Storage: s.Name)))
            .Where(cell => !suites.Contains(cell))
            .Select(cell => $"step 5: no sealed {ContractOf[cell.Api].Name} subclass for {cell.Storage}");
        Assert.Empty(missing);
    }

    [Fact]
    public async Task EveryServerIsOneScriptServicesStartsAndTheOutageTestsStop()
    {
        var lib = File.ReadAllText(Path.Combine(RepositoryRoot.Path, "script", "lib.sh"));
        var allServers = Regex.Match(lib, @"^ALL_SERVERS=\(([^)]*)\)", RegexOptions.Multiline).Groups[1].Value.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        var services = File.ReadAllText(Path.Combine(RepositoryRoot.Path, "script", "services"));
        var outageServers = InlineRows(typeof(OutageTests)).Select(row => (string)row[0]).ToHashSet();
        var storages = await StoragesDescriptionTests.StoragesAsync([]);

        var problems = new List<string>();
        foreach (var server in storages.SelectMany(s => s.Servers.Concat(s.Caches)).Distinct())
        {
            if (!allServers.Contains(server)) problems.Add($"step 4: {server} is not in ALL_SERVERS (script/lib.sh)");
            if (!services.Contains(server, StringComparison.Ordinal)) problems.Add($"step 4: script/services does not know {server}");
        }
        foreach (var server in storages.SelectMany(s => s.Servers).Distinct().Where(s => !outageServers.Contains(s)))
            problems.Add($"step 5: OutageTests has no case that stops {server}");
        var exactlyOnce = InlineRows(typeof(QueueExactlyOnceTests)).Select(row => (string)row[0]).ToHashSet();
        foreach (var queue in storages.Where(s => s.Serves.Contains("Queue")).Select(s => s.Name).Where(q => !exactlyOnce.Contains(q)))
            problems.Add($"step 5: QueueExactlyOnceTests has no row for {queue}");
        Assert.Empty(problems);
    }

    private static string StorageOf(Type suite)
    {
        var instance = RuntimeHelpers.GetUninitializedObject(suite);
        var property = (suite.GetProperty("Storage", BindingFlags.Instance | BindingFlags.NonPublic) ?? suite.GetProperty("Queue", BindingFlags.Instance | BindingFlags.NonPublic))!;
        return (string)property.GetValue(instance)!;
    }

    private static IEnumerable<object[]> InlineRows(Type tests) =>
        tests.GetMethods().SelectMany(m => m.GetCustomAttributes<InlineDataAttribute>().SelectMany(a => a.GetData(m)));
}
