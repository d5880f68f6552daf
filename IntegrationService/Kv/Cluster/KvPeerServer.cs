using System.Buffers;
using System.IO.Pipelines;
using System.Threading.Channels;
using IntegrationService.Storage;
using IntegrationService.Storage.Limits;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Options;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// The owner's side of the hop, on a cluster node's own HTTP port: a Kestrel connection middleware
/// that looks at a new connection's first byte. A connection that opens with
/// <see cref="KvPeerProtocol.Preface"/> is another node's (<see cref="KvPeerConnection"/>); every other
/// goes on to HTTP untouched. On a node's connection every request frame read starts its store
/// operation at once, so the many requests one receive brings run together (and the store's client
/// sends them together); the answers are written in the order of the requests, each batch of ready
/// ones in one send. Keys are always served here: nothing is forwarded twice.
/// </summary>
internal sealed class KvPeerServer(StorageRegistry registry, IOptions<ClusterOptions> options, IHostApplicationLifetime lifetime,
    ILogger<KvPeerServer> logger)
{
    /// <summary>Operations running at once on one connection; the connection is not read further until one ends.</summary>
    private readonly int _maxInFlight = options.Value.MaxInFlightPerNode;

    /// <summary>Installs the middleware on every endpoint of a cluster node (none on a single node).</summary>
    public static void Install(KestrelServerOptions kestrel, ClusterOptions cluster)
    {
        if (cluster.NodeList.Count == 0) return;
        kestrel.ConfigureEndpointDefaults(listen =>
        {
            KvPeerServer? server = null;
            listen.Use(http => connection =>
            {
                server ??= listen.ApplicationServices.GetRequiredService<KvPeerServer>();
                return server.OnConnectionAsync(connection, http, kestrel.Limits.KeepAliveTimeout);
            });
        });
    }

    internal async Task OnConnectionAsync(ConnectionContext connection, ConnectionDelegate http, TimeSpan firstByteTimeout)
    {
        var input = connection.Transport.Input;
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(connection.ConnectionClosed, lifetime.ApplicationStopping);
        timeout.CancelAfter(firstByteTimeout);
        while (true)
        {
            ReadResult result;
            try
            {
                result = await input.ReadAsync(timeout.Token);
            }
            catch (OperationCanceledException)
            {
                return; // nothing came, or the node is stopping: closed like an idle connection
            }
            var buffer = result.Buffer;
            if (buffer.IsEmpty || buffer.FirstSpan[0] != KvPeerProtocol.Preface[0])
            {
                input.AdvanceTo(buffer.Start); // HTTP reads the same bytes again
                await http(connection);
                return;
            }
            var preface = KvPeerProtocol.Preface.Length;
            if (buffer.Length >= preface)
            {
                if (!buffer.Slice(0, preface).ToArray().AsSpan().SequenceEqual(KvPeerProtocol.Preface)) return; // neither HTTP nor a node: closed
                input.AdvanceTo(buffer.GetPosition(preface));
                // A node whose host vanished without a FIN would otherwise hold this connection, and its
                // reads, for good: nothing times out an idle node's connection.
                if (connection.Features.Get<IConnectionSocketFeature>()?.Socket is { } socket) KvPeerConnection.KeepAlive.ApplyTo(socket);
                await ServeAsync(connection);
                return;
            }
            if (result.IsCompleted) return;
            input.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    private async Task ServeAsync(ConnectionContext connection)
    {
        var closed = connection.ConnectionClosed;
        // Kestrel waits for a connection it did not serve as HTTP until its shutdown timeout: when the
        // node stops, the connection is read no further, the requests read are answered, and it is
        // closed. The other node sends a request it still waits for once more, on a new connection (KvCluster).
        using var reading = CancellationTokenSource.CreateLinkedTokenSource(closed, lifetime.ApplicationStopping);
        var input = connection.Transport.Input;
        var replies = Channel.CreateBounded<Task<KvPeerReply>>(new BoundedChannelOptions(_maxInFlight) { SingleReader = true, SingleWriter = true });
        var writing = WriteRepliesAsync(replies.Reader, connection.Transport.Output, closed);
        try
        {
            while (true)
            {
                var result = await input.ReadAsync(reading.Token);
                var buffer = result.Buffer;
                while (KvPeerProtocol.TryReadFrame(ref buffer, out var frame))
                {
                    var reply = RunAsync(frame, closed); // the frame is read before it returns
                    if (!replies.Writer.TryWrite(reply)) await replies.Writer.WriteAsync(reply, closed); // not cut short by stopping: it was read
                }
                if (result.IsCompleted) break;
                input.AdvanceTo(buffer.Start, buffer.End);
            }
        }
        catch (Exception e) when (e is KvPeerProtocolException or OperationCanceledException or IOException or ConnectionResetException)
        {
            // A frame it cannot read (the node drops the connection and sends its waiting requests again), the node
            // went away, or this one is stopping.
            if (e is KvPeerProtocolException) logger.LogWarning("A node's connection {Connection} was closed: {Reason}", connection.ConnectionId, e.Message);
        }
        finally
        {
            replies.Writer.TryComplete();
            await writing;
        }
    }

    private Task<KvPeerReply> RunAsync(ReadOnlySequence<byte> frame, CancellationToken closed)
    {
        KvPeerRequest request;
        IKvStore store;
        try
        {
            request = KvPeerProtocol.ParseRequest(frame);
            store = registry.Kv(request.Storage);
        }
        catch (UnknownStorageException e)
        {
            return Task.FromResult(new KvPeerReply(KvPeerOutcome.Refused, Backend: "node", Detail: e.Message));
        }
        if (request.Op != KvPeerOp.Ping && !KvEndpoints.TryReadKey(request.Key, out _, out _))
        {
            return Task.FromResult(new KvPeerReply(KvPeerOutcome.Refused, Backend: "node", Detail: "a key the key-value API does not take"));
        }
        return ServeAsync(store, request, closed);
    }

    private async Task<KvPeerReply> ServeAsync(IKvStore store, KvPeerRequest request, CancellationToken closed)
    {
        try
        {
            switch (request.Op)
            {
                case KvPeerOp.Get:
                    var value = await store.GetAsync(request.Key, closed);
                    return value is null ? KvPeerReply.NotFound : new KvPeerReply(KvPeerOutcome.Value, value);
                case KvPeerOp.Put:
                    await store.PutAsync(request.Key, request.Value, closed);
                    return KvPeerReply.Done;
                case KvPeerOp.Delete:
                    await store.DeleteAsync(request.Key, closed);
                    return KvPeerReply.Done;
                default:
                    return KvPeerReply.Done;
            }
        }
        catch (StorageUnavailableException e)
        {
            // The forwarding node throws it again with the same backend and detail: the client reads this node's 503.
            return new KvPeerReply(KvPeerOutcome.Unavailable, Backend: e.Backend, Detail: e.Reason);
        }
        catch (BackendOverloadedException e)
        {
            return new KvPeerReply(KvPeerOutcome.Overloaded, Backend: e.Backend, Detail: e.Message);
        }
        catch (OperationCanceledException) when (closed.IsCancellationRequested)
        {
            return KvPeerReply.Done; // the node went away: never written
        }
        catch (Exception e)
        {
            logger.LogError(e, "A forwarded {Op} of key {Key} failed", request.Op, request.Key);
            return new KvPeerReply(KvPeerOutcome.Refused, Backend: "node", Detail: $"the owner failed to serve it ({e.GetType().Name})");
        }
    }

    private static async Task WriteRepliesAsync(ChannelReader<Task<KvPeerReply>> replies, PipeWriter output, CancellationToken closed)
    {
        try
        {
            while (await replies.WaitToReadAsync(closed))
            {
                while (replies.TryRead(out var pending))
                {
                    var reply = await pending;
                    var span = output.GetSpan(KvPeerProtocol.MaxReplyBytes(reply));
                    output.Advance(KvPeerProtocol.WriteReply(span, reply));
                    // Answers that are ready go out together; one still running is not waited for.
                    if (replies.TryPeek(out var next) && next.IsCompleted) continue;
                    var flushed = await output.FlushAsync(closed);
                    if (flushed.IsCompleted || flushed.IsCanceled) return;
                }
            }
        }
        catch (Exception e) when (e is OperationCanceledException or IOException or ConnectionResetException)
        {
            // The node went away: its requests are in doubt on its side.
        }
    }
}
