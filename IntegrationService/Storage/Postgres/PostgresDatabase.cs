using Npgsql;

namespace IntegrationService.Storage.Postgres;

/// <summary>
/// Opens pooled connections and turns driver failures that mean "the server is not there"
/// (refused, dropped, timed out, shutting down) into <see cref="StorageUnavailableException"/>.
/// </summary>
public sealed class PostgresDatabase(NpgsqlDataSource dataSource)
{
    public NpgsqlDataSource DataSource { get; } = dataSource;

    public async Task<T> RunAsync<T>(Func<NpgsqlConnection, CancellationToken, Task<T>> work, CancellationToken cancellationToken)
    {
        try
        {
            await using var connection = await DataSource.OpenConnectionAsync(cancellationToken);
            return await work(connection, cancellationToken);
        }
        catch (Exception e) when (IsUnavailable(e))
        {
            // Idle connections to a restarted server are dead too: drop them now rather than
            // failing one request per stale connection.
            DataSource.Clear();
            throw new StorageUnavailableException("postgres", Describe(e), e);
        }
    }

    internal static bool IsUnavailable(Exception e) => e switch
    {
        PostgresException p => p.SqlState.StartsWith("08", StringComparison.Ordinal)
            || p.SqlState is PostgresErrorCodes.AdminShutdown or PostgresErrorCodes.CrashShutdown
                or PostgresErrorCodes.CannotConnectNow or PostgresErrorCodes.TooManyConnections,
        NpgsqlException => true,
        TimeoutException => true,
        _ => false,
    };

    private static string Describe(Exception e) =>
        e.InnerException is TimeoutException ? "no answer in time" : e.Message;
}
