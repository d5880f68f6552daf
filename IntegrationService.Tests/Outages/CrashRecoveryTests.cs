using System.Diagnostics;
using System.Net;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Outages;

/// <summary>
/// A server killed with SIGKILL (no clean shutdown, a stale pid file left behind) is brought back
/// by <c>script/services up</c>, and the running service answers through it again. Runs on the
/// tests' own instances only.
/// </summary>
[Collection("Outages")]
public sealed class CrashRecoveryTests(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    private static readonly TimeSpan RecoveryBound = TimeSpan.FromSeconds(45);

    [Theory]
    [InlineData("postgres", "postgres/postmaster.pid", "/Author/GetAll?limit=1&storage=postgres")]
    [InlineData("tarantool", "tarantool/tarantool.pid", "/item/1/locations?storage=tarantool-memtx")]
    [InlineData("redis-cache", "redis-cache/redis.pid", "/item/1/locations?storage=postgres-redis-cache")]
    [InlineData("redis-persistent", "redis-persistent/redis.pid", "/item/1/locations?storage=postgres-redis-persistent")]
    public async Task ServicesUpBringsBackAServerKilledWithSigkill(string server, string pidFile, string url)
    {
        Assert.Equal(HttpStatusCode.OK, (await service.Client.GetAsync(url)).StatusCode);
        var path = Path.Combine(TestServers.DataDirectory, pidFile);
        var pid = await ReadPidAsync(path);
        Assert.True(IsRunning(pid), $"{server}: pid {pid} from {path} is not running before the test");
        using (var process = Process.GetProcessById(pid)) process.Kill(); // SIGKILL on Unix
        var killed = Stopwatch.StartNew();
        while (IsRunning(pid))
        {
            Assert.True(killed.Elapsed < TimeSpan.FromSeconds(10), $"{server}: pid {pid} still runs 10 s after SIGKILL");
            await Task.Delay(50);
        }
        Assert.True(File.Exists(path), "a killed server leaves its pid file behind: the case under test");

        await RepositoryRoot.ServicesAsync("up", server);

        var restarted = await ReadPidAsync(path);
        Assert.NotEqual(pid, restarted);
        Assert.True(IsRunning(restarted), $"{server}: the restarted pid {restarted} is not running");
        await RepositoryRoot.ServicesAsync("status", server);

        var stopwatch = Stopwatch.StartNew();
        HttpStatusCode status;
        do
        {
            status = (await service.Client.GetAsync(url)).StatusCode;
            if (status == HttpStatusCode.OK) return;
            Assert.Equal(HttpStatusCode.ServiceUnavailable, status);
            await Task.Delay(250);
        }
        while (stopwatch.Elapsed < RecoveryBound);
        Assert.Fail($"{url} still answers {(int)status} {RecoveryBound.TotalSeconds} s after script/services up");
    }

    /// <summary>
    /// The pid file's first line, read with cat: .NET takes a shared flock on files it opens,
    /// which fails on Tarantool's pid file while Tarantool holds its exclusive lock.
    /// </summary>
    private static async Task<int> ReadPidAsync(string path)
    {
        using var cat = Process.Start(new ProcessStartInfo("cat", [path]) { RedirectStandardOutput = true, RedirectStandardError = true })!;
        var text = await cat.StandardOutput.ReadToEndAsync();
        await cat.WaitForExitAsync();
        Assert.True(cat.ExitCode == 0, $"cannot read {path}: {await cat.StandardError.ReadToEndAsync()}");
        return int.Parse(text.Split('\n')[0].Trim());
    }

    /// <summary>Alive and not a zombie (a zombie's command line is empty).</summary>
    private static bool IsRunning(int pid)
    {
        try
        {
            return File.ReadAllBytes($"/proc/{pid}/cmdline").Length > 0;
        }
        catch (IOException)
        {
            return false;
        }
        catch (UnauthorizedAccessException)
        {
            return false;
        }
    }
}
