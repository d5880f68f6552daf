using Microsoft.Extensions.Options;
using Npgsql;

namespace IntegrationService.Storage.Postgres;

/// <summary>
/// The service's access to PostgreSQL: one multiplexing data source, a deadline on every call, and
/// the translation of driver failures that mean "the server is not there" (refused, dropped, timed
/// out, shutting down, or no longer the primary) into <see cref="StorageUnavailableException"/>.
/// </summary>
/// <param name="dataSource">The data source every call runs on.</param>
/// <param name="options">Deadlines, and the connection string when <paramref name="connectionString"/> is not given.</param>
/// <param name="backend">The server's name in 503 answers ("postgres", or a replicated topology's).</param>
/// <param name="connectionString">The data source's connection string (a replicated topology's), for connections of their own.</param>
public sealed class PostgresDatabase(NpgsqlDataSource dataSource, IOptions<PostgresOptions> options, string backend = PostgresServiceCollectionExtensions.BackendName,
    string? connectionString = null)
{
    // Npgsql does not enforce CommandTimeout on multiplexed commands, so the deadline is ours.
    private readonly TimeSpan _timeout = TimeSpan.FromSeconds(options.Value.CommandTimeoutSeconds);

    public NpgsqlDataSource DataSource { get; } = dataSource;

    /// <summary>
    /// Runs one operation on the data source (commands made with <see cref="NpgsqlDataSource.CreateCommand"/>
    /// are multiplexed) within CommandTimeoutSeconds. <paramref name="work"/> should be static: the state
    /// argument spares a closure per call.
    /// </summary>
    public async Task<T> RunAsync<TState, T>(TState state, Func<NpgsqlDataSource, TState, Task<T>> work)
    {
        try
        {
            return await work(DataSource, state).WaitAsync(_timeout).ConfigureAwait(false);
        }
        catch (Exception e) when (IsUnavailable(e))
        {
            throw Unavailable(e);
        }
    }

    // Outside the multiplexing pool: Npgsql binds a multiplexed connection for COPY synchronously,
    // and a fill-queue COPY hung there for good in a blocking socket read while authenticating the
    // new physical connection. These calls are rare (start-up,
    // tools), so each opens a connection of its own and closes it.
    private readonly string _dedicatedConnectionString = new NpgsqlConnectionStringBuilder(connectionString ?? options.Value.ConnectionString)
    {
        Multiplexing = false,
        Pooling = false,
        Timeout = options.Value.ConnectTimeoutSeconds,
        CommandTimeout = options.Value.CommandTimeoutSeconds,
    }.ConnectionString;

    /// <summary>
    /// Runs work that needs a connection of its own (transactions, COPY, maintenance), with the
    /// caller's token, on a connection opened for it outside the multiplexing pool.
    /// </summary>
    public async Task<T> RunOnConnectionAsync<T>(Func<NpgsqlConnection, CancellationToken, Task<T>> work, CancellationToken cancellationToken)
    {
        try
        {
            await using var connection = new NpgsqlConnection(_dedicatedConnectionString);
            await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
            return await work(connection, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception e) when (IsUnavailable(e))
        {
            throw Unavailable(e);
        }
    }

    /// <summary>
    /// Opens <paramref name="count"/> connections at once and returns them to the pool, where
    /// MinPoolSize keeps them: the first burst of requests then finds backends already forked.
    /// </summary>
    public async Task OpenWarmConnectionsAsync(int count, CancellationToken cancellationToken)
    {
        try
        {
            var connections = await Task.WhenAll(Enumerable.Range(0, count)
                .Select(_ => DataSource.OpenConnectionAsync(cancellationToken).AsTask())).ConfigureAwait(false);
            foreach (var connection in connections) await connection.DisposeAsync().ConfigureAwait(false);
        }
        catch (Exception e) when (IsUnavailable(e))
        {
            throw Unavailable(e);
        }
    }

    internal static bool IsUnavailable(Exception e) => e switch
    {
        // A write on a server that is now a standby (a pooled connection to a demoted primary) is 25006.
        PostgresException p => p.SqlState.StartsWith("08", StringComparison.Ordinal)
            || p.SqlState is PostgresErrorCodes.AdminShutdown or PostgresErrorCodes.CrashShutdown
                or PostgresErrorCodes.CannotConnectNow or PostgresErrorCodes.TooManyConnections or PostgresErrorCodes.ReadOnlySqlTransaction,
        NpgsqlException => true,
        TimeoutException => true,
        _ => false,
    };

    private StorageUnavailableException Unavailable(Exception e)
    {
        // Idle connections to a restarted server are dead too: drop them now rather than failing
        // one request per stale connection.
        DataSource.Clear();
        return new StorageUnavailableException(backend, Describe(e), e);
    }

    private static string Describe(Exception e) =>
        e is TimeoutException || e.InnerException is TimeoutException ? "no answer in time" : e.Message;
}
