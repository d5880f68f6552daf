namespace IntegrationService.Storage.Postgres;

internal sealed class PostgresHealthCheck(PostgresDatabase database) : IBackendHealthCheck
{
    public string Name => "postgres";

    public Task PingAsync(CancellationToken cancellationToken) =>
        database.RunAsync(async (connection, ct) =>
        {
            await using var command = connection.CreateCommand();
            command.CommandText = "select 1";
            return await command.ExecuteScalarAsync(ct);
        }, cancellationToken);
}
