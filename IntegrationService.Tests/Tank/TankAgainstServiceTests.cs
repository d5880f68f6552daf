using System.Text.Json;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Tank;

/// <summary>
/// The tank kit end to end against the real service and servers: generated ammo, a short
/// open-model run written as phout, and the report over it.
/// </summary>
public sealed class TankAgainstServiceTests(ServiceFixture service) : IClassFixture<ServiceFixture>, IDisposable
{
    private readonly string _work = Directory.CreateTempSubdirectory("tank-e2e-").FullName;

    private string HostPort => service.Client.BaseAddress!.Authority;

    public void Dispose() => Directory.Delete(_work, recursive: true);

    [Theory]
    [InlineData("item-read", "tarantool-memtx", 200)]
    [InlineData("author-write", "postgres", 201)]
    public async Task ARunWritesOnePhoutLinePerPlannedRequestAndTheReportCoversIt(string scenario, string storage, int expectedStatus)
    {
        var ammo = Path.Combine(_work, "ammo.txt");
        var runDir = Path.Combine(_work, "run");
        var runOut = Path.Combine(runDir, "runs", storage, scenario);
        Assert.Equal(0, Tank("ammo", "--scenario", scenario, "--storage", storage, "--host", HostPort, "--count", "300", "--seed", "3",
            "--items", TestDataSet.Items.ToString(), "--locations", TestDataSet.Locations.ToString(), "--out", ammo));

        var exit = await Task.Run(() => Tank("run", Path.Combine(RepositoryRoot.Path, "tank", "load.yaml"), "--ammo", ammo,
            "--address", HostPort, "--schedule", "const(100, 2s)", "--out", runOut, "--storage", storage, "--scenario", scenario, "--quiet"));
        Assert.Equal(0, exit);

        var lines = File.ReadAllLines(Path.Combine(runOut, "phout.log"));
        Assert.Equal(200, lines.Length); // const(100, 2s): floor(100 * 2) requests
        foreach (var fields in lines.Select(l => l.Split('\t')))
        {
            Assert.Equal(12, fields.Length);
            Assert.Equal(scenario, fields[1]);
            var parts = fields[3..7].Select(long.Parse).ToArray();
            Assert.Equal(long.Parse(fields[2]), parts.Sum()); // interval_real = connect + send + latency + receive
            Assert.Equal("0", fields[10]);
            Assert.Equal(expectedStatus.ToString(), fields[11]);
        }

        Assert.Equal(0, global::Lab.Commands.LabCli.Run(["report", runDir]));
        Assert.Contains(storage, File.ReadAllText(Path.Combine(runDir, "report.md")));
        Assert.True(File.Exists(Path.Combine(runDir, "report.html")));
        using var summary = JsonDocument.Parse(File.ReadAllText(Path.Combine(runDir, "summary.json")));
        Assert.Contains(storage, summary.RootElement.GetRawText());
    }

    private static int Tank(params string[] args) => global::Tank.Commands.TankCli.Run(args);
}
