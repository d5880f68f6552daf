using System.ComponentModel.DataAnnotations;
using IntegrationService.Storage.RabbitMq;

namespace IntegrationService.Tests.Unit;

/// <summary>RabbitMq:R3Endpoints, checked at start: rabbitmq-r3's nodes as host:port, comma-separated.</summary>
public sealed class RabbitMqOptionsTests
{
    private static List<ValidationResult> Validate(string endpoints)
    {
        var options = new RabbitMqOptions { Port = 15673, R3Endpoints = endpoints };
        var results = new List<ValidationResult>();
        Validator.TryValidateObject(options, new ValidationContext(options), results, validateAllProperties: true);
        return results;
    }

    [Fact]
    public void ThreeEndpointsOrNoneAreValid()
    {
        Assert.Empty(Validate("127.0.0.71:15675, 127.0.0.72:15675,127.0.0.73:15675"));
        Assert.Empty(Validate(""));
        Assert.Equal([("127.0.0.71", 1), ("127.0.0.72", 2), ("127.0.0.73", 3)],
            new RabbitMqOptions { R3Endpoints = "127.0.0.71:1, 127.0.0.72:2,127.0.0.73:3" }.R3Nodes().Select(n => (n.HostName, n.Port)));
    }

    [Theory]
    [InlineData(",", 0)]
    [InlineData("127.0.0.71:15675", 1)]
    [InlineData("127.0.0.71:15675,127.0.0.72:15675", 2)]
    public void FewerThanThreeNodesAreRefused(string endpoints, int count)
    {
        var error = Assert.Single(Validate(endpoints), e => e.ErrorMessage!.Contains("at least 3 needed"));
        Assert.StartsWith($"RabbitMq:R3Endpoints: {count} node(s) given", error.ErrorMessage);
    }

    [Theory]
    [InlineData("127.0.0.71,127.0.0.72:1,127.0.0.73:1")]
    [InlineData("127.0.0.71:,127.0.0.72:1,127.0.0.73:1")]
    [InlineData("127.0.0.71:0,127.0.0.72:1,127.0.0.73:1")]
    [InlineData("127.0.0.71:65536,127.0.0.72:1,127.0.0.73:1")]
    [InlineData("127.0.0.71:15675,:15675,127.0.0.73:1")]
    [InlineData("127.0.0.71:15675,127.0.0.72:x,127.0.0.73:1")]
    public void AnEntryThatIsNotHostPortIsRefusedNamingIt(string endpoints)
    {
        var error = Assert.Single(Validate(endpoints));
        Assert.StartsWith("RabbitMq:R3Endpoints: '", error.ErrorMessage);
        Assert.Contains("is not host:port", error.ErrorMessage);
    }
}
