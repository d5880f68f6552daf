namespace IntegrationService.Authors;

/// <summary>
/// Author persistence for one storage architecture. Absent rows are reported as null/false;
/// infrastructure failures (unreachable, timed out) throw <see cref="Storage.StorageUnavailableException"/>.
/// </summary>
public interface IAuthorStore
{
    /// <summary>Inserts the author, ignoring its <see cref="Author.Id"/>, and returns it with the new id.</summary>
    Task<Author> CreateAsync(Author author, CancellationToken cancellationToken);

    /// <summary>The author with this id, or null.</summary>
    Task<Author?> GetAsync(long id, CancellationToken cancellationToken);

    /// <summary>Up to <paramref name="limit"/> authors ordered by id, skipping the first <paramref name="offset"/>.</summary>
    Task<IReadOnlyList<Author>> GetPageAsync(int offset, int limit, CancellationToken cancellationToken);

    /// <summary>Replaces every field of the author with the same id; null when there is none.</summary>
    Task<Author?> UpdateAsync(Author author, CancellationToken cancellationToken);

    /// <summary>Deletes the author; false when there was none.</summary>
    Task<bool> DeleteAsync(long id, CancellationToken cancellationToken);
}
