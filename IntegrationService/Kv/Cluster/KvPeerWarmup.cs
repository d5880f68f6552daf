namespace IntegrationService.Kv.Cluster;

/// <summary>
/// Opens <see cref="ClusterOptions.WarmConnectionsPerNode"/> of the connections to each other node once
/// at start, by a ping on each, so that the first forwarded requests do not pay a TCP
/// connect. The nodes start together: a node not answering yet is asked again every
/// half second for up to a minute, then left to the first requests.
/// </summary>
internal sealed class KvPeerWarmup(KvCluster cluster) : BackgroundService
{
    private static readonly TimeSpan Retry = TimeSpan.FromMilliseconds(500);
    private static readonly TimeSpan GiveUp = TimeSpan.FromMinutes(1);

    protected override Task ExecuteAsync(CancellationToken stoppingToken) =>
        cluster.WarmConnectionsPerNode == 0 ? Task.CompletedTask : Task.WhenAll(cluster.Peers.Select(peer => WarmAsync(peer, stoppingToken)));

    private async Task WarmAsync(KvPeer peer, CancellationToken stoppingToken)
    {
        using var giveUp = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken);
        giveUp.CancelAfter(GiveUp);
        try
        {
            while (!await cluster.PingAsync(peer, 0, giveUp.Token)) await Task.Delay(Retry, giveUp.Token);
            await Task.WhenAll(Enumerable.Range(1, cluster.WarmConnectionsPerNode - 1).Select(slot => cluster.PingAsync(peer, slot, giveUp.Token)));
        }
        catch (OperationCanceledException)
        {
            // Stopping, or the node never answered: its connections open on first use.
        }
    }
}
