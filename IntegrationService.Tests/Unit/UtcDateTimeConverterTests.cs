using System.Text.Json;
using IntegrationService.Http;

namespace IntegrationService.Tests.Unit;

public sealed class UtcDateTimeConverterTests
{
    private static readonly JsonSerializerOptions Options = new() { Converters = { new UtcDateTimeConverter() } };

    [Theory]
    [InlineData("2020-05-24T13:09:57.635Z", "2020-05-24T13:09:57.635Z")]
    [InlineData("2020-05-24T16:09:57.635+03:00", "2020-05-24T13:09:57.635Z")]
    [InlineData("2020-05-24T13:09:57.635", "2020-05-24T13:09:57.635Z")]
    [InlineData("2020-05-24T13:09:57Z", "2020-05-24T13:09:57Z")]
    [InlineData("2020-05-24T13:09:57.1234567Z", "2020-05-24T13:09:57.123456Z")]
    public void ReadsAnyIso8601AndWritesUtcToTheMicrosecond(string input, string expected)
    {
        var value = JsonSerializer.Deserialize<DateTime>($"\"{input}\"", Options);
        Assert.Equal(DateTimeKind.Utc, value.Kind);
        Assert.Equal($"\"{expected}\"", JsonSerializer.Serialize(value, Options));
    }

    [Fact]
    public void WritesAtMostMicrosecondsEvenWhenTheValueHasFinerTicks() =>
        Assert.Equal("\"2020-05-24T13:09:57.1234Z\"",
            JsonSerializer.Serialize(new DateTime(2020, 5, 24, 13, 9, 57, DateTimeKind.Utc).AddTicks(1_234_009), Options));

    [Theory]
    [InlineData("\"yesterday\"")]
    [InlineData("\"24.05.2020\"")]
    [InlineData("12")]
    public void RejectsWhatIsNotIso8601(string json) =>
        Assert.ThrowsAny<JsonException>(() => JsonSerializer.Deserialize<DateTime>(json, Options));
}
