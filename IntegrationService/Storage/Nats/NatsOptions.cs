using System.ComponentModel.DataAnnotations;

namespace IntegrationService.Storage.Nats;

/// <summary>Configuration section "Nats".</summary>
public sealed class NatsOptions : IValidatableObject
{
    /// <summary>The server's URL: the local server's from infra/config/ports.txt (<see cref="PortTableConfiguration"/>).</summary>
    [Required(ErrorMessage = "Nats:Url is not set: Nats__Url in the environment or --Nats:Url=…, or run from a checkout, whose infra/config/ports.txt gives the local servers' endpoints")]
    public string Url { get; set; } = "";

    /// <summary>
    /// nats-r3's nodes, in NATS.Net's syntax (<c>nats://host:port,nats://host:port,nats://host:port</c>): the
    /// client connects to one, learns the others from it and moves to another when its node fails. The
    /// stream there has three replicas. Empty: the deployment has no nats-r3 (the architecture is not offered).
    /// </summary>
    public string R3Url { get; set; } = "";

    /// <summary>nats-r3's nodes: each URL of <see cref="R3Url"/> (none when it is empty).</summary>
    public IReadOnlyList<Uri> R3Nodes() =>
        [.. R3Url.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries).Select(url => new Uri(url))];

    /// <summary>Each entry of Nats:R3Url is an absolute nats:// URL with a host and a port, checked at start.</summary>
    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        foreach (var url in R3Url.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
        {
            if (!Uri.TryCreate(url, UriKind.Absolute, out var uri) || uri.Scheme != "nats" || uri.Port <= 0)
            {
                yield return new ValidationResult($"Nats:R3Url: '{url}' is not a nats://host:port URL (the nodes, comma-separated)", [nameof(R3Url)]);
            }
        }
    }

    /// <summary>The JetStream stream holding the queue (created by the service if it is missing).</summary>
    [Required]
    public string Stream { get; set; } = "INTEGRATION";

    /// <summary>The subject the stream captures, to which messages are published.</summary>
    [Required]
    public string Subject { get; set; } = "integration.queue";

    /// <summary>The durable pull consumer the reads fetch from.</summary>
    [Required]
    public string Consumer { get; set; } = "integration";

    /// <summary>
    /// Milliseconds one call (a publish and its PubAck, a take's fetch and its acks) may take before it
    /// counts as unavailable (503). At least 1.5 s: a read's fetch may take its 1 s expiry (<see cref="NatsQueueStore"/>).
    /// </summary>
    [Range(1500, 60_000)]
    public int TimeoutMs { get; set; } = 2000;

    /// <summary>
    /// How many takes of <c>GET /read</c> may run at once; reads that arrive while that many run are
    /// served together by the next (<see cref="Queues.QueueTakeBatcher{T}"/>: one no-wait fetch of up to
    /// <see cref="NatsQueueStore.MaxBatch"/> messages, then their acks). At most 8, so that the
    /// messages those takes hold while their acks are answered (8 × 64) stay well under the consumer's
    /// MaxAckPending (the server's default, 1000), which the leases share.
    /// </summary>
    [Range(1, 8)]
    public int QueueTakesInFlight { get; set; } = 2;

    /// <summary>
    /// Seconds a fetched message waits for its ack before the server hands it out again. A lease
    /// longer than this is kept with in-progress acks every third of it (<see cref="NatsQueueStore"/>);
    /// the leases of a service that dies come back this long after their last one.
    /// </summary>
    [Range(1, 3600)]
    public int AckWaitSeconds { get; set; } = 30;

    /// <summary>
    /// How often nats-server fsyncs its stream files, in milliseconds: nats-server 2.9 has no setting
    /// for it (2.10 added sync_interval) and syncs every 2 minutes. The client does not apply it: it
    /// describes the server we are deployed against, for the durability statement of <c>GET /storages</c>.
    /// </summary>
    [Range(0, 3_600_000)]
    public int SyncIntervalMs { get; set; } = 120_000;
}
