using System.ComponentModel.DataAnnotations;

namespace IntegrationService.Storage.Postgres;

/// <summary>Configuration section "Postgres".</summary>
public sealed class PostgresOptions
{
    /// <summary>Npgsql connection string; pooling and timeouts below are applied on top of it.</summary>
    [Required]
    public string ConnectionString { get; set; } = "Host=127.0.0.1;Port=15432;Username=integration;Database=integration";

    /// <summary>Seconds one command may run before it fails with 503 (never 0: that means forever).</summary>
    [Range(1, 300)]
    public int CommandTimeoutSeconds { get; set; } = 5;

    /// <summary>Seconds to wait for a connection (new or from the pool) before answering 503.</summary>
    [Range(1, 60)]
    public int ConnectTimeoutSeconds { get; set; } = 3;

    /// <summary>
    /// Pool size. Small on purpose: PostgreSQL is fastest with few busy backends, and the
    /// pool queues the rest instead of opening hundreds of processes.
    /// </summary>
    [Range(1, 1000)]
    public int MaxPoolSize { get; set; } = 64;
}
