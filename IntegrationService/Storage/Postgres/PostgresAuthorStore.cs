using IntegrationService.Authors;
using Npgsql;
using NpgsqlTypes;

namespace IntegrationService.Storage.Postgres;

/// <summary>Authors in the <c>authors</c> table; one multiplexed round trip per operation, rows read by ordinal.</summary>
public sealed class PostgresAuthorStore(PostgresDatabase database) : IAuthorStore
{
    private const string Columns =
        "id, name, family_name, middle_name, age, birth_country, birth_city, books_count, nationality, birth_date_time";

    private const string InsertSql =
        $"insert into authors ({Fields}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning {Columns}";

    private const string SelectSql = $"select {Columns} from authors where id = $1";
    private const string PageSql = $"select {Columns} from authors order by id limit $1 offset $2";
    private const string UpdateSql = $"update authors set ({Fields}) = ($1, $2, $3, $4, $5, $6, $7, $8, $9) where id = $10 returning {Columns}";
    private const string DeleteSql = "delete from authors where id = $1";
    private const string Fields = "name, family_name, middle_name, age, birth_country, birth_city, books_count, nationality, birth_date_time";

    public Task<Author> CreateAsync(Author author, CancellationToken cancellationToken) =>
        database.RunAsync(author, static async (source, author) =>
        {
            await using var command = source.CreateCommand(InsertSql);
            AddFields(command.Parameters, author);
            return await ReadOneAsync(command) ?? throw new InvalidOperationException("insert returned no row");
        });

    public Task<Author?> GetAsync(long id, CancellationToken cancellationToken) =>
        database.RunAsync(id, static async (source, id) =>
        {
            await using var command = source.CreateCommand(SelectSql);
            command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = id });
            return await ReadOneAsync(command);
        });

    public Task<IReadOnlyList<Author>> GetPageAsync(int offset, int limit, CancellationToken cancellationToken) =>
        database.RunAsync((offset, limit), static async (source, page) =>
        {
            await using var command = source.CreateCommand(PageSql);
            command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = page.limit });
            command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = page.offset });
            await using var reader = await command.ExecuteReaderAsync();
            var authors = new List<Author>(page.limit);
            while (await reader.ReadAsync()) authors.Add(Read(reader));
            return (IReadOnlyList<Author>)authors;
        });

    public Task<Author?> UpdateAsync(Author author, CancellationToken cancellationToken) =>
        database.RunAsync(author, static async (source, author) =>
        {
            await using var command = source.CreateCommand(UpdateSql);
            AddFields(command.Parameters, author);
            command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = author.Id });
            return await ReadOneAsync(command);
        });

    public Task<bool> DeleteAsync(long id, CancellationToken cancellationToken) =>
        database.RunAsync(id, static async (source, id) =>
        {
            await using var command = source.CreateCommand(DeleteSql);
            command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = id });
            return await command.ExecuteNonQueryAsync() > 0;
        });

    private static void AddFields(NpgsqlParameterCollection parameters, Author author)
    {
        parameters.Add(new NpgsqlParameter<string> { TypedValue = author.Name });
        parameters.Add(new NpgsqlParameter<string> { TypedValue = author.FamilyName });
        parameters.Add(Nullable(author.MiddleName));
        parameters.Add(new NpgsqlParameter<short> { TypedValue = (short)author.Age });
        parameters.Add(Nullable(author.BirthCountry));
        parameters.Add(Nullable(author.BirthCity));
        parameters.Add(new NpgsqlParameter<short> { TypedValue = (short)author.BooksCount });
        parameters.Add(Nullable(author.Nationality));
        parameters.Add(author.BirthDateTime is { } at
            ? new NpgsqlParameter<DateTime> { TypedValue = at.ToUniversalTime(), NpgsqlDbType = NpgsqlDbType.TimestampTz }
            : new NpgsqlParameter { Value = DBNull.Value, NpgsqlDbType = NpgsqlDbType.TimestampTz });
    }

    private static NpgsqlParameter Nullable(string? value) =>
        new() { Value = (object?)value ?? DBNull.Value, NpgsqlDbType = NpgsqlDbType.Varchar };

    private static async Task<Author?> ReadOneAsync(NpgsqlCommand command)
    {
        await using var reader = await command.ExecuteReaderAsync();
        return await reader.ReadAsync() ? Read(reader) : null;
    }

    private static Author Read(NpgsqlDataReader row) => new()
    {
        Id = row.GetInt64(0),
        Name = row.GetString(1),
        FamilyName = row.GetString(2),
        MiddleName = row.IsDBNull(3) ? null : row.GetString(3),
        Age = row.GetInt16(4),
        BirthCountry = row.IsDBNull(5) ? null : row.GetString(5),
        BirthCity = row.IsDBNull(6) ? null : row.GetString(6),
        BooksCount = row.GetInt16(7),
        Nationality = row.IsDBNull(8) ? null : row.GetString(8),
        BirthDateTime = row.IsDBNull(9) ? null : row.GetDateTime(9), // timestamptz reads as UTC
    };
}
