using System.Text;
using System.Text.Json;
using IntegrationService.Queues;
using IntegrationService.Storage.Redis;

namespace IntegrationService.Tests.Unit;

public sealed class QueueMessageTests
{
    [Fact]
    public void AGeneratedMessageHasTheOriginalsShapeAndDiffersEachTime()
    {
        var first = JsonDocument.Parse(GeneratedMessage.Create()).RootElement;
        var second = JsonDocument.Parse(GeneratedMessage.Create()).RootElement;
        Assert.Equal(["payload", "title", "timestamp"], first.EnumerateObject().Select(p => p.Name));
        Assert.Equal(["uuid", "username", "email", "first_name", "last_name"], first.GetProperty("payload").EnumerateObject().Select(p => p.Name));
        Assert.Matches("^[0-9a-f]{14}$", first.GetProperty("title").GetString());
        Assert.Matches("^[a-z]+\\.[a-z]+[0-9]+@[a-z.]+$", first.GetProperty("payload").GetProperty("email").GetString());
        Assert.NotEqual(first.GetProperty("payload").GetProperty("uuid").GetString(), second.GetProperty("payload").GetProperty("uuid").GetString());
    }

    [Theory]
    [InlineData("{}")]
    [InlineData("[]")]
    [InlineData("\"text\"")]
    [InlineData("42")]
    [InlineData("null")]
    [InlineData(" {\"a\":[1,{\"b\":\"\\u0000\"}]} \n")]
    public void OneJsonDocumentIsAValidMessage(string json) => Assert.Null(QueueMessageBody.Validate(Encoding.UTF8.GetBytes(json)));

    [Theory]
    [InlineData("")]
    [InlineData("{")]
    [InlineData("{} {}")]
    [InlineData("{\"a\":1,}")]
    [InlineData("// comment\n{}")]
    [InlineData("{'a':1}")]
    public void AnythingElseIsNot(string json) => Assert.NotNull(QueueMessageBody.Validate(Encoding.UTF8.GetBytes(json)));

    [Fact]
    public void InvalidUtf8InAStringIsNotAValidMessage() =>
        Assert.NotNull(QueueMessageBody.Validate([(byte)'"', 0xff, 0xfe, (byte)'"']));

    [Fact]
    public void ARedisElementSplitsIntoIdAndMessage()
    {
        var message = RedisQueueStore.Parse(Encoding.UTF8.GetBytes("1234:{\"a\":\"x:y\"}"));
        Assert.Equal(1234, message.Id);
        Assert.Equal("{\"a\":\"x:y\"}", Encoding.UTF8.GetString(message.Body.Span));
        Assert.Throws<FormatException>(() => RedisQueueStore.Parse(Encoding.UTF8.GetBytes("x1:{}")));
        Assert.Throws<FormatException>(() => RedisQueueStore.Parse(Encoding.UTF8.GetBytes("{}")));
    }
}
