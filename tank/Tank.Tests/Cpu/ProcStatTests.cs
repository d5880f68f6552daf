using Tank.Cpu;
using Harness.CommandLine;

namespace Tank.Tests.Cpu;

public sealed class ProcStatTests
{
    // A real line's shape: the command name may contain spaces and ')' of its own.
    private const string Line =
        "4242 (postgres: a) b) S 4200 4242 4242 0 -1 4194560 1000 0 0 0 1234 567 89 10 20 0 1 0 100 200000 300 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";

    [Fact]
    public void FieldsAreCountedFromTheLastParenthesis()
    {
        var stat = ProcStat.Parse(Line);
        Assert.Equal(4242, stat.Pid);
        Assert.Equal(4200, stat.ParentPid);
        Assert.Equal(1234, stat.UserTicks);
        Assert.Equal(567, stat.SystemTicks);
        Assert.Equal(89, stat.ChildUserTicks);
        Assert.Equal(10, stat.ChildSystemTicks);
        Assert.Equal(1234 + 567 + 89 + 10, stat.OwnAndReapedTicks);
    }

    [Theory]
    [InlineData("")]
    [InlineData("12 (short) S 1 2 3")]
    [InlineData("no parenthesis here")]
    public void ALineThatIsNotAStatLineIsRejected(string line) => Assert.Throws<FormatException>(() => ProcStat.Parse(line));

    [Theory]
    [InlineData("service=123", "service", 123)]
    [InlineData("redis-cache=9", "redis-cache", 9)]
    public void TargetsAreNameEqualsPid(string text, string name, int pid) => Assert.Equal(new CpuTarget(name, pid), CpuTarget.Parse(text));

    [Theory]
    [InlineData("service")]
    [InlineData("=12")]
    [InlineData("service=abc")]
    [InlineData("service=0")]
    public void BadTargetsAreInputErrors(string text) => Assert.Throws<InputException>(() => CpuTarget.Parse(text));
}
