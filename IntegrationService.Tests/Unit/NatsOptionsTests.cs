using System.ComponentModel.DataAnnotations;
using IntegrationService.Storage.Nats;

namespace IntegrationService.Tests.Unit;

/// <summary>Nats:R3Url, checked at start: nats-r3's nodes as nats://host:port URLs, comma-separated.</summary>
public sealed class NatsOptionsTests
{
    private static List<ValidationResult> Validate(string r3Url)
    {
        var options = new NatsOptions { Url = "nats://127.0.0.1:14222", R3Url = r3Url };
        var results = new List<ValidationResult>();
        Validator.TryValidateObject(options, new ValidationContext(options), results, validateAllProperties: true);
        return results;
    }

    [Fact]
    public void ThreeNodeUrlsOrNoneAreValid()
    {
        Assert.Empty(Validate("nats://127.0.0.41:14224, nats://127.0.0.42:14224,nats://127.0.0.43:14224"));
        Assert.Empty(Validate(""));
        Assert.Equal(["127.0.0.41", "127.0.0.42"], new NatsOptions { R3Url = "nats://127.0.0.41:1, nats://127.0.0.42:1" }.R3Nodes().Select(n => n.Host));
    }

    [Theory]
    [InlineData("127.0.0.41:14224")]
    [InlineData("http://127.0.0.41:14224")]
    [InlineData("nats://127.0.0.41:14224,not a url")]
    public void AnEntryThatIsNotANatsUrlIsRefusedNamingIt(string r3Url)
    {
        var error = Assert.Single(Validate(r3Url));
        Assert.StartsWith("Nats:R3Url: '", error.ErrorMessage);
        Assert.Contains("is not a nats://host:port URL", error.ErrorMessage);
    }
}
