namespace IntegrationService.Storage.Postgres;

internal sealed class PostgresHealthCheck(PostgresDatabase database) : IBackendHealthCheck
{
    public Task PingAsync(CancellationToken cancellationToken) =>
        database.RunAsync(0, static async (source, _) =>
        {
            await using var command = source.CreateCommand("select 1");
            return await command.ExecuteScalarAsync();
        });
}
