using System.Text;

namespace Crash.Tests;

public sealed class KvWorkloadTests
{
    private const string Url = "http://127.0.0.1:1";

    private static void Complete(KvWorkload kv, WriteRecord write, int status)
    {
        var acked = kv.Acknowledges(write, status, []);
        write.Class = ResponseClasses.Of(status, acked);
        write.Outcome = ResponseClasses.Outcome(write.Class, status);
        kv.Completed(write);
    }

    [Fact]
    public void AWriteIsAPutOfAValueUniquePerWriteUnderTheRunsPrefixAcknowledgedBy201()
    {
        var kv = new KvWorkload(Url, "redis-persistent", "r1", seed: 1);
        var write = kv.Next(0)!;
        Assert.Equal(HttpMethod.Put, write.Method);
        Assert.Equal("crash-r1-0", write.Key);
        Assert.Equal($"{Url}/v0/entity?id=crash-r1-0&storage=redis-persistent", write.Url);
        Assert.Equal("v-r1-0", Encoding.UTF8.GetString(write.Body));
        Assert.Equal(write.Value, Encoding.UTF8.GetString(write.Body));
        Assert.True(kv.Acknowledges(write, 201, []));
        Assert.False(kv.Acknowledges(write, 200, []));
    }

    [Fact]
    public void EveryFourthWriteOverwritesAnAcknowledgedKeyThatIsFree()
    {
        var kv = new KvWorkload(Url, "postgres", "r1", seed: 1);
        Assert.Equal("crash-r1-3", kv.Next(3)!.Key); // nothing acknowledged yet: a new key
        var first = kv.Next(0)!;
        Complete(kv, first, 201);
        var overwrite = kv.Next(7)!;
        Assert.Equal("crash-r1-0", overwrite.Key);
        Assert.Equal("v-r1-7", overwrite.Value);
        Assert.Equal("crash-r1-11", kv.Next(11)!.Key); // crash-r1-0 is busy
        Complete(kv, overwrite, 503); // in doubt: the key is retired
        Assert.Equal("crash-r1-15", kv.Next(15)!.Key);
    }

    [Fact]
    public void ReadsTellAValueFromAMissingKeyAndRetryableAnswers()
    {
        var kv = new KvWorkload(Url, "postgres", "r1", seed: 1);
        Assert.Equal(ReadValue.Of("v-r1-4"), kv.ParseRead(200, "v-r1-4"u8.ToArray()));
        Assert.Equal(ReadValue.Missing, kv.ParseRead(404, []));
        Assert.Null(kv.ParseRead(503, []));
        Assert.Equal(ReadValue.Unreadable, kv.ParseRead(400, []));
        Assert.Equal($"{Url}/v0/entity?id=crash-r1-probe&storage=postgres", kv.ProbeUrl(null));
    }

    [Fact]
    public void AKeyValueReadBackIsJudgedLikeAnAuthors()
    {
        WriteAttempt[] writes = [new("v-r1-0", WriteOutcome.Acked), new("v-r1-7", WriteOutcome.Acked)];
        Assert.Equal(Verdict.Ok, CrashVerifier.Classify(writes, ReadValue.Of("v-r1-7"))!.Verdict);
        Assert.Equal(Verdict.Stale, CrashVerifier.Classify(writes, ReadValue.Of("v-r1-0"))!.Verdict);
        Assert.Equal(Verdict.Lost, CrashVerifier.Classify(writes, ReadValue.Missing)!.Verdict);
    }
}
