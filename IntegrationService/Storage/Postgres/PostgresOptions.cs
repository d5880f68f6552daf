using System.ComponentModel.DataAnnotations;

namespace IntegrationService.Storage.Postgres;

/// <summary>Configuration section "Postgres".</summary>
public sealed class PostgresOptions
{
    /// <summary>
    /// Npgsql connection string; pooling and timeouts below are applied on top of it. No default here:
    /// infra/config/ports.txt gives the local server's (<see cref="PortTableConfiguration"/>).
    /// </summary>
    [Required(ErrorMessage = "Postgres:ConnectionString is not set: Postgres__ConnectionString in the environment or --Postgres:ConnectionString=…, or run from a checkout, whose infra/config/ports.txt gives the local servers' endpoints")]
    public string ConnectionString { get; set; } = "";

    /// <summary>
    /// Npgsql connection string of postgres-patroni (PostgreSQL with Patroni on three nodes, asynchronous replication):
    /// every node, with <c>Target Session Attributes=primary</c>. Unset: the architecture is not offered.
    /// </summary>
    public string? Patroni { get; set; }

    /// <summary>The same for postgres-patroni-sync (Patroni's synchronous mode).</summary>
    public string? PatroniSync { get; set; }

    /// <summary>Seconds one call may take before it answers 503 (never 0: that would mean forever).</summary>
    [Range(1, 300)]
    public int CommandTimeoutSeconds { get; set; } = 5;

    /// <summary>Seconds to wait for a new connection before answering 503.</summary>
    [Range(1, 60)]
    public int ConnectTimeoutSeconds { get; set; } = 3;

    /// <summary>
    /// Npgsql multiplexing: commands from all requests are pipelined over a few shared connections
    /// instead of each request holding a connection for its round trip: on a 2-core machine it more
    /// than doubles single-row reads (docs/BENCHMARKS.md).
    /// </summary>
    public bool Multiplexing { get; set; } = true;

    /// <summary>Most connections the pool opens (with multiplexing, only as many as the load needs).</summary>
    [Range(1, 1000)]
    public int MaxPoolSize { get; set; } = 64;

    /// <summary>
    /// Connections opened at start-up and kept open, so the first requests under load do not wait
    /// while PostgreSQL forks backends.
    /// </summary>
    [Range(0, 1000)]
    public int WarmConnections { get; set; } = 8;

    /// <summary>
    /// How many takes of the postgres queue may run at once; reads that arrive while that many run
    /// are served together by the next take (<see cref="Queues.QueueTakeBatcher{T}"/>, one statement for up
    /// to 64 reads). 1 serialises takes; more let several contend for the queue's head.
    /// </summary>
    [Range(1, 64)]
    public int QueueTakesInFlight { get; set; } = 2;

    /// <summary>
    /// The server's <c>synchronous_commit</c> (on, local, remote_write, remote_apply or off) as
    /// infra/config/postgresql.conf sets it for script/services and the AWS host. The service does
    /// not apply it: it describes the server we are deployed against, and the durability statements
    /// of <c>GET /storages</c> are built from it. Set it when the server is configured otherwise.
    /// </summary>
    [RegularExpression("^(on|local|remote_write|remote_apply|off)$")]
    public string SynchronousCommit { get; set; } = "on";

    /// <summary>
    /// The server's <c>fsync</c> (infra/config/postgresql.conf); like <see cref="SynchronousCommit"/>,
    /// it only describes the server for <c>GET /storages</c>.
    /// </summary>
    public bool Fsync { get; set; } = true;
}
