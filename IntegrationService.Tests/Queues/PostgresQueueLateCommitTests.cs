using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using IntegrationService.Storage.Postgres;
using IntegrationService.Tests.Fixtures;
using Npgsql;

namespace IntegrationService.Tests.Queues;

/// <summary>
/// The PostgreSQL queue's takes scan from a cursor past the ids already taken, but ids are handed
/// out before an insert commits: a message can commit behind the cursor. It must still be read, and
/// the queue must not answer "empty" while it waits.
/// </summary>
public sealed class PostgresQueueLateCommitTests(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    [Fact]
    public async Task AMessageThatCommitsBehindTheCursorIsReadBeforeTheQueueAnswersEmpty()
    {
        var client = service.Client;
        while ((await client.GetAsync("/read/postgres")).StatusCode == HttpStatusCode.OK) { }
        var database = service.Services.GetRequiredService<PostgresDatabase>();

        // The late insert's ids are handed out first, as an insert's is before its commit ...
        var late = new[] { await NextIdAsync(database), await NextIdAsync(database) };
        // ... then three messages are written and read: the cursor is past all of them.
        for (var i = 0; i < 3; i++) await WriteAsync(client, $"on-time-{i}");
        for (var i = 0; i < 3; i++) Assert.Equal($"on-time-{i}", await ReadKeyAsync(client));

        // One commits now: the cursor finds nothing past it, so the take looks behind it.
        await InsertAsync(database, late[0], "late-0");
        Assert.Equal("late-0", await ReadKeyAsync(client));

        // Once the cursor has been past them for a second the floor is past them too: the other one,
        // committed now, is found from the head before "empty".
        await Task.Delay(QueueTakeCursor.FloorLag);
        Assert.Equal(HttpStatusCode.NoContent, (await client.GetAsync("/read/postgres")).StatusCode);
        await Task.Delay(QueueTakeCursor.FloorLag);
        Assert.Equal(HttpStatusCode.NoContent, (await client.GetAsync("/read/postgres")).StatusCode);
        await InsertAsync(database, late[1], "late-1");
        Assert.Equal("late-1", await ReadKeyAsync(client));
        Assert.Equal(HttpStatusCode.NoContent, (await client.GetAsync("/read/postgres")).StatusCode);
    }

    private static async Task<long> NextIdAsync(PostgresDatabase database)
    {
        await using var command = database.DataSource.CreateCommand("select nextval(pg_get_serial_sequence('queue_messages', 'id'))");
        return (long)(await command.ExecuteScalarAsync())!;
    }

    private static async Task InsertAsync(PostgresDatabase database, long id, string key)
    {
        await using var command = database.DataSource.CreateCommand("insert into queue_messages (id, body) overriding system value values ($1, $2)");
        command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = id });
        command.Parameters.Add(new NpgsqlParameter<byte[]> { TypedValue = Encoding.UTF8.GetBytes($$"""{"key":"{{key}}"}""") });
        await command.ExecuteNonQueryAsync();
    }

    private static async Task WriteAsync(HttpClient client, string key)
    {
        var response = await client.PostAsync("/write/postgres", new StringContent($$"""{"key":"{{key}}"}""", Encoding.UTF8, "application/json"));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    private static async Task<string> ReadKeyAsync(HttpClient client)
    {
        var response = await client.GetAsync("/read/postgres");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var message = (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("read_message");
        return message.GetProperty("key").GetString()!;
    }
}
