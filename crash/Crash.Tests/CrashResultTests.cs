using System.Text.Json;
using Crash;

namespace Crash.Tests;

public sealed class CrashResultTests
{
    private static CrashResult Sample(double? recovery = 2.314, long failed = 212) => new()
    {
        Label = "postgres author db-kill",
        Storage = "postgres",
        Kind = "author",
        Url = "http://127.0.0.1:18080",
        RunId = "0a1b2c3d",
        StartedAt = new DateTimeOffset(2025, 5, 6, 7, 8, 9, TimeSpan.Zero),
        Rate = 200,
        Seconds = 20,
        TimeoutMs = 3000,
        FaultAtS = 8,
        FaultCmd = "docker kill pg && docker start pg",
        FaultExitCode = 0,
        FaultStartedS = 8.001,
        FaultEndedS = 9.5,
        FaultStderrTail = "pg\npg",
        Planned = 4000,
        Sent = 3999,
        Acked = 3999 - failed,
        Failed = new FailureCounts { Total = failed, Http503 = failed - 23, Timeout = 22, OtherStatus = 1, OtherStatuses = new() { ["500"] = 1 } },
        InDoubt = failed,
        Skipped = 1,
        KeysWritten = 3100,
        KeysAcked = 2990,
        Ok = 2980,
        OkFromInDoubt = 3,
        Lost = 4,
        Stale = 3,
        Changed = 2,
        Unverified = 1,
        RecoveryS = recovery,
        FirstFailureS = 8.01,
        LastFailureS = 10.2,
        ReadBackReadyS = 20.4,
        Examples = new CrashExamples { Lost = [new KeyExample("17", "{\"name\":\"crash-x-5\"}", "(missing)", "missing")] },
    };

    [Fact]
    public void TheResultSurvivesARoundTripThroughItsFile()
    {
        var path = Path.Combine(Path.GetTempPath(), $"crash-{Guid.NewGuid():N}.json");
        try
        {
            var result = Sample();
            result.Write(path);
            var read = CrashResult.Read(path);
            Assert.Equal(JsonSerializer.Serialize(result, CrashResult.Json), JsonSerializer.Serialize(read, CrashResult.Json));
            Assert.Equal(result.Failed.Http503, read.Failed.Http503);
            Assert.Equal(1, read.Failed.OtherStatuses["500"]);
            Assert.Equal("(missing)", read.Examples.Lost.Single().Actual);
            Assert.Equal(2.314, read.RecoveryS);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void TheFileIsSnakeCaseWithNullsKept()
    {
        var text = JsonSerializer.Serialize(Sample(recovery: null), CrashResult.Json);
        Assert.Contains("\"fault_cmd\": \"docker kill pg && docker start pg\"", text);
        Assert.Contains("\"expected\": \"{\\\"name\\\":\\\"crash-x-5\\\"}\"", text);
        var json = JsonDocument.Parse(text).RootElement;
        foreach (var name in new[] { "label", "storage", "kind", "url", "rate", "seconds", "fault_at_s", "fault_cmd", "fault_exit_code", "fault_started_s",
                     "fault_ended_s", "sent", "acked", "failed", "skipped", "keys_written", "keys_acked", "ok", "lost", "stale", "changed", "unverified",
                     "recovery_s", "first_failure_s", "last_failure_s", "examples" })
        {
            Assert.True(json.TryGetProperty(name, out _), $"no {name}");
        }
        Assert.Equal(JsonValueKind.Null, json.GetProperty("recovery_s").ValueKind);
        Assert.Equal(189, json.GetProperty("failed").GetProperty("http_503").GetInt64());
        Assert.Equal(22, json.GetProperty("failed").GetProperty("timeout").GetInt64());
        Assert.Equal("17", json.GetProperty("examples").GetProperty("lost")[0].GetProperty("key").GetString());
        Assert.Equal(0, json.GetProperty("examples").GetProperty("stale").GetArrayLength());
    }

    [Fact]
    public void TheSummaryLineSaysWhatWasLostAndWhenTheApiCameBack()
    {
        Assert.Equal("postgres author db-kill: 3787 acked on 2990 keys: 4 lost, 3 stale, 2 changed, 1 unverified; "
            + "212 failed (503 189, other 1, timeout 22, conn 0); 1 skipped; API back 2.31 s after the fault", Sample().Summary());
        Assert.EndsWith("; writes never acknowledged again after the fault", Sample(recovery: null).Summary());
        Assert.EndsWith("; no write failed", (Sample(recovery: 0, failed: 0) with { Failed = new FailureCounts() }).Summary());
        Assert.EndsWith("; the API did not answer the read-back", (Sample() with { ReadBackReadyS = null }).Summary());
    }
}
