using System.Reflection;
using Npgsql;

namespace IntegrationService.Storage.Postgres;

/// <summary>
/// Applies schema.sql at start-up and opens the warm connections. When PostgreSQL is up the schema
/// exists and the pool is open before the first request; when it is down the service still starts
/// (answering 503) and keeps trying.
/// </summary>
/// <param name="database">The database (the main one, or a Patroni topology's).</param>
/// <param name="warmConnections">How many connections to open once the schema is there (<see cref="PostgresOptions.WarmConnections"/>).</param>
/// <param name="logger">Its log.</param>
internal sealed class PostgresSchemaInitializer(PostgresDatabase database, int warmConnections, ILogger<PostgresSchemaInitializer> logger) : BackgroundService
{
    private static readonly TimeSpan RetryDelay = TimeSpan.FromSeconds(2);
    private readonly int _warmConnections = warmConnections;
    private readonly TaskCompletionSource _firstAttempt = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public override async Task StartAsync(CancellationToken cancellationToken)
    {
        await base.StartAsync(cancellationToken);
        await _firstAttempt.Task.WaitAsync(cancellationToken);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                await database.RunOnConnectionAsync(async (connection, ct) =>
                {
                    await ApplyAsync(connection, ct);
                    return true;
                }, stoppingToken);
                logger.LogInformation("PostgreSQL schema ready");
                await database.OpenWarmConnectionsAsync(_warmConnections, stoppingToken);
                _firstAttempt.TrySetResult();
                return;
            }
            catch (StorageUnavailableException e)
            {
                logger.LogWarning("PostgreSQL schema not applied yet ({Reason}); retrying", e.Message);
                _firstAttempt.TrySetResult();
                await Task.Delay(RetryDelay, stoppingToken);
            }
        }
    }

    /// <summary>
    /// Applies schema.sql on <paramref name="connection"/> (idempotent). Concurrent service instances
    /// (CREATE ... IF NOT EXISTS can race) are serialised by a transaction-scoped lock: it is released
    /// by commit or rollback, never left on a pooled connection if the schema fails halfway.
    /// </summary>
    internal static async Task ApplyAsync(NpgsqlConnection connection, CancellationToken cancellationToken)
    {
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        await using var command = new NpgsqlCommand($"select pg_advisory_xact_lock(7245001); {Schema.Value}", connection, transaction);
        await command.ExecuteNonQueryAsync(cancellationToken);
        await transaction.CommitAsync(cancellationToken);
    }

    private static readonly Lazy<string> Schema = new(ReadSchema);

    private static string ReadSchema()
    {
        using var stream = Assembly.GetExecutingAssembly().GetManifestResourceStream("schema.sql")
            ?? throw new InvalidOperationException("schema.sql is not embedded in the assembly");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }
}
