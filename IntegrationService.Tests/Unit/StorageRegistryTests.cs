using IntegrationService.Authors;
using IntegrationService.Items;
using IntegrationService.Storage;
using Microsoft.Extensions.Options;

namespace IntegrationService.Tests.Unit;

public sealed class StorageRegistryTests
{
    private sealed class NoAuthors : IAuthorStore
    {
        public Task<Author> CreateAsync(Author author, CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task<Author?> GetAsync(long id, CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task<IReadOnlyList<Author>> GetPageAsync(int offset, int limit, CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task<Author?> UpdateAsync(Author author, CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task<bool> DeleteAsync(long id, CancellationToken cancellationToken) => throw new InvalidOperationException();
    }

    private sealed class NoItems : IItemStore
    {
        public Task<IReadOnlyList<Location>> GetLocationsAsync(long itemId, CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task ReplaceLocationsAsync(long itemId, IReadOnlyList<long> locationIds, CancellationToken cancellationToken) => throw new InvalidOperationException();
    }

    private static readonly IAuthorStore PgAuthors = new NoAuthors();
    private static readonly IItemStore PgItems = new NoItems();
    private static readonly IItemStore RedisItems = new NoItems();

    private static StorageRegistry Registry(string defaultName = "postgres") => new(
        [
            new StorageArchitecture("postgres-redis-persistent", "", "", null, RedisItems, ["redis-persistent"], []),
            new StorageArchitecture("postgres", "", "", PgAuthors, PgItems, ["postgres"], []),
        ],
        Options.Create(new StorageOptions { Default = defaultName }));

    [Fact]
    public void NamesResolveToTheirStores()
    {
        Assert.Same(PgAuthors, Registry().Authors("postgres"));
        Assert.Same(RedisItems, Registry().Items("postgres-redis-persistent"));
    }

    [Fact]
    public void NamesAreCaseInsensitive() => Assert.Same(PgItems, Registry().Items("PostGres"));

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    public void AMissingNameSelectsTheDefault(string? name) => Assert.Same(PgItems, Registry().Items(name));

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
