using IntegrationService.Authors;
using IntegrationService.Items;
using IntegrationService.Storage;
using IntegrationService.Storage.Limits;
using Microsoft.Extensions.Options;

namespace IntegrationService.Tests.Unit;

public sealed class StorageRegistryTests
{
    /// <summary>A store that names itself in every answer, so a test can tell which one the registry handed out.</summary>
    private sealed class NoAuthors : IAuthorStore
    {
        public Task<Author> CreateAsync(Author author, CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task<Author?> GetAsync(long id, CancellationToken cancellationToken) => Task.FromResult<Author?>(new Author { Name = "pg" });
        public Task<IReadOnlyList<Author>> GetPageAsync(int offset, int limit, CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task<Author?> UpdateAsync(Author author, CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task<bool> DeleteAsync(long id, CancellationToken cancellationToken) => throw new InvalidOperationException();
    }

    private sealed class NoItems(string name) : IItemStore
    {
        public Task<IReadOnlyList<Location>> GetLocationsAsync(long itemId, CancellationToken cancellationToken) =>
            Task.FromResult<IReadOnlyList<Location>>([new Location(0, name, new Coordinates(0, 0))]);
        public Task ReplaceLocationsAsync(long itemId, IReadOnlyList<long> locationIds, CancellationToken cancellationToken) => throw new InvalidOperationException();
    }

    private static readonly IAuthorStore PgAuthors = new NoAuthors();
    private static readonly IItemStore PgItems = new NoItems("pg");
    private static readonly IItemStore RedisItems = new NoItems("redis");

    private static StorageRegistry Registry(string defaultName = "postgres")
    {
        var options = Options.Create(new StorageOptions { Default = defaultName });
        return new StorageRegistry(
            [
                new StorageArchitecture("postgres-redis-persistent", "", "", null, RedisItems, ["redis-persistent"], []),
                new StorageArchitecture("postgres", "", "", PgAuthors, PgItems, ["postgres"], []),
            ],
            options, Options.Create(new IntegrationService.Kv.KvOptions()), new BackendLimiter(options));
    }

    private static async Task<string> WhichAsync(IItemStore store) => (await store.GetLocationsAsync(1, CancellationToken.None))[0].Text;

    [Fact]
    public async Task NamesResolveToTheirStores()
    {
        Assert.Equal("pg", (await Registry().Authors("postgres").GetAsync(1, CancellationToken.None))!.Name);
        Assert.Equal("redis", await WhichAsync(Registry().Items("postgres-redis-persistent")));
        Assert.Equal("pg", await WhichAsync(Registry().Items("postgres")));
    }

    [Fact]
    public void ADefaultThatNamesNoArchitectureIsRefusedAtStartNamingTheSetting()
    {
        var error = Assert.Throws<OptionsValidationException>(() => Registry("postgress"));
        Assert.Contains("Storage:Default 'postgress'", error.Message);

        var options = Options.Create(new StorageOptions());
        var kv = new StorageArchitecture("tarantool-memtx", "", "", null, null, ["tarantool"], []) { Kv = new NoKv() };
        error = Assert.Throws<OptionsValidationException>(() => new StorageRegistry([new StorageArchitecture("postgres", "", "", PgAuthors, PgItems, ["postgres"], []), kv],
            options, Options.Create(new IntegrationService.Kv.KvOptions { Default = "postgres" }), new BackendLimiter(options)));
        Assert.Contains("Kv:Default 'postgres' is not a key-value architecture (known: tarantool-memtx)", error.Message);
    }

    private sealed class NoKv : IntegrationService.Kv.IKvStore
    {
        public Task<byte[]?> GetAsync(string key, CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task PutAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task DeleteAsync(string key, CancellationToken cancellationToken) => throw new InvalidOperationException();
    }

    [Fact]
    public async Task NamesAreCaseInsensitive() => Assert.Equal("pg", await WhichAsync(Registry().Items("PostGres")));

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    public async Task AMissingNameSelectsTheDefault(string? name) => Assert.Equal("pg", await WhichAsync(Registry().Items(name)));

    [Fact]
    public void AnUnknownNameListsTheValidOnes()
    {
        var error = Assert.Throws<UnknownStorageException>(() => Registry().Items("mysql"));
        Assert.Equal(["postgres", "postgres-redis-persistent"], error.ValidNames);
        Assert.Contains("mysql", error.Message);
    }

    [Fact]
    public void ANameThatDoesNotServeTheEntityIsUnknownForIt()
    {
        var error = Assert.Throws<UnknownStorageException>(() => Registry().Authors("postgres-redis-persistent"));
        Assert.Equal(["postgres"], error.ValidNames);
    }

    [Fact]
    public void NamesAreListedPerEntity()
    {
        Assert.Equal(["postgres"], Registry().AuthorStorageNames);
        Assert.Equal(["postgres", "postgres-redis-persistent"], Registry().ItemStorageNames);
    }
}
