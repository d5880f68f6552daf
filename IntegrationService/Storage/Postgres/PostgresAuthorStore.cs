using Dapper;
using IntegrationService.Authors;

namespace IntegrationService.Storage.Postgres;

/// <summary>Authors in the <c>authors</c> table; one round trip per operation.</summary>
public sealed class PostgresAuthorStore(PostgresDatabase database) : IAuthorStore
{
    private const string Columns =
        "id, name, family_name, middle_name, age, birth_country, birth_city, books_count, nationality, birth_date_time";

    private const string Values =
        "@Name, @FamilyName, @MiddleName, @Age, @BirthCountry, @BirthCity, @BooksCount, @Nationality, @BirthDateTime";

    public Task<Author> CreateAsync(Author author, CancellationToken cancellationToken) =>
        database.RunAsync((connection, ct) => connection.QuerySingleAsync<Author>(new CommandDefinition(
            $"insert into authors ({Columns[4..]}) values ({Values}) returning {Columns}", author, cancellationToken: ct)), cancellationToken);

    public Task<Author?> GetAsync(long id, CancellationToken cancellationToken) =>
        database.RunAsync((connection, ct) => connection.QuerySingleOrDefaultAsync<Author?>(new CommandDefinition(
            $"select {Columns} from authors where id = @id", new { id }, cancellationToken: ct)), cancellationToken);

    public Task<IReadOnlyList<Author>> GetPageAsync(int offset, int limit, CancellationToken cancellationToken) =>
        database.RunAsync(async (connection, ct) => (IReadOnlyList<Author>)(await connection.QueryAsync<Author>(new CommandDefinition(
            $"select {Columns} from authors order by id limit @limit offset @offset", new { offset, limit }, cancellationToken: ct))).AsList(), cancellationToken);

    public Task<Author?> UpdateAsync(Author author, CancellationToken cancellationToken) =>
        database.RunAsync((connection, ct) => connection.QuerySingleOrDefaultAsync<Author?>(new CommandDefinition(
            $"update authors set ({Columns[4..]}) = ({Values}) where id = @Id returning {Columns}", author, cancellationToken: ct)), cancellationToken);

    public Task<bool> DeleteAsync(long id, CancellationToken cancellationToken) =>
        database.RunAsync(async (connection, ct) => await connection.ExecuteAsync(new CommandDefinition(
            "delete from authors where id = @id", new { id }, cancellationToken: ct)) > 0, cancellationToken);
}
