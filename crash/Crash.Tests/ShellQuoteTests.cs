using Crash.Matrix;

namespace Crash.Tests;

public sealed class ShellQuoteTests
{
    [Theory]
    [InlineData("/work/x/script/crashtest", "/work/x/script/crashtest")]
    [InlineData("redis-persistent", "redis-persistent")]
    [InlineData("/a dir/crashtest", "'/a dir/crashtest'")]
    [InlineData("it's", "'it'\\''s'")]
    [InlineData("", "''")]
    [InlineData("$(rm -rf x)", "'$(rm -rf x)'")]
    public void AWordComesThroughBashAsItIs(string word, string quoted) => Assert.Equal(quoted, ShellQuote.Word(word));
}
