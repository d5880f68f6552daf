using System.Text.Json;
using IntegrationService.Authors;
using IntegrationService.Http;

namespace IntegrationService.Storage.Redis;

/// <summary>
/// Read-through cache over any author store: a miss reads the store and fills the cache (unless a
/// write came in between: see <see cref="RedisCache"/>); a write goes to the store first, then
/// deletes the key (before it too, and with care for writes in doubt: <see cref="RedisCache.WriteAsync{T}"/>).
/// </summary>
public sealed class CachedAuthorStore(IAuthorStore inner, RedisCache cache) : IAuthorStore
{
    public Task<Author> CreateAsync(Author author, CancellationToken cancellationToken) =>
        inner.CreateAsync(author, cancellationToken);

    public async Task<Author?> GetAsync(long id, CancellationToken cancellationToken)
    {
        var key = Key(id);
        var read = await cache.ReadAsync(key);
        if (read.Value is { } cached) return JsonSerializer.Deserialize(cached, ApiJsonContext.Default.Author);

        var author = await inner.GetAsync(id, cancellationToken);
        if (author is not null) cache.Fill(key, read.Lease, JsonSerializer.SerializeToUtf8Bytes(author, ApiJsonContext.Default.Author));
        return author;
    }

    // Pages are not cached: any write would invalidate every page after it.
    public Task<IReadOnlyList<Author>> GetPageAsync(int offset, int limit, CancellationToken cancellationToken) =>
        inner.GetPageAsync(offset, limit, cancellationToken);

    public Task<Author?> UpdateAsync(Author author, CancellationToken cancellationToken) =>
        cache.WriteAsync(Key(author.Id), () => inner.UpdateAsync(author, cancellationToken));

    public Task<bool> DeleteAsync(long id, CancellationToken cancellationToken) =>
        cache.WriteAsync(Key(id), () => inner.DeleteAsync(id, cancellationToken));

    private static string Key(long id) => $"author:{id}";
}
