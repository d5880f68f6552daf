using System.Net;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Outages;

/// <summary>
/// Calls that time out while the broker does not answer must not use the connection up: the
/// client can lose track of a channel whose opening timed out, and a connection has a fixed number
/// of channels (2047 by default; 16 here). Found by the bench of 2026-11-27 07:47: after 2 047
/// timed-out calls under overload, every RabbitMQ request answered 503 "The connection cannot
/// support any more channels" until the service restarted.
/// </summary>
[Collection("Outages")]
public sealed class RabbitMqChannelTests(RabbitMqChannelTests.FewChannelsService service) : IClassFixture<RabbitMqChannelTests.FewChannelsService>
{
    private const int ChannelMax = 16;

    public sealed class FewChannelsService : ServiceFixture
    {
        protected override IEnumerable<string> ExtraArguments => [$"--RabbitMq:ChannelMax={ChannelMax}", "--RabbitMq:TimeoutMs=300"];
    }

    private HttpClient Client => service.Client;

    [Fact]
    public async Task ManyMoreCallsThanChannelsTimingOutOnAStoppedBrokerLeaveItServingOnceItIsBack()
    {
        const string url = "/depth/rabbitmq";
        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync(url)).StatusCode);
        var pids = await ServerProcesses.PidsAsync("rabbitmq");
        await ServerProcesses.SignalAsync("STOP", pids);
        try
        {
            for (var wave = 0; wave < 4; wave++)
            {
                var answers = await Task.WhenAll(Enumerable.Range(0, 2 * ChannelMax).Select(_ => Client.GetAsync("/read/rabbitmq"))).WaitAsync(Recovery.AnswerBound);
                Assert.All(answers, answer => Assert.Equal(HttpStatusCode.ServiceUnavailable, answer.StatusCode));
            }
        }
        finally
        {
            await ServerProcesses.SignalAsync("CONT", pids);
        }
        await Recovery.AssertRecoversAsync(Client, url);
        // Half the connection's channels at once, again and again: none may be lost to the stall.
        for (var round = 0; round < 8; round++)
        {
            var answers = await Task.WhenAll(Enumerable.Range(0, ChannelMax / 2).Select(_ => Client.GetAsync(url)));
            Assert.All(answers, answer => Assert.Equal(HttpStatusCode.OK, answer.StatusCode));
        }
    }
}
