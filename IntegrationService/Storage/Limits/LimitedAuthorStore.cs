using IntegrationService.Authors;

namespace IntegrationService.Storage.Limits;

/// <summary>An architecture's author store behind its backends' concurrency limits (<see cref="BackendLimiter"/>).</summary>
internal sealed class LimitedAuthorStore(IAuthorStore inner, BackendPermits permits) : IAuthorStore
{
    public async Task<Author> CreateAsync(Author author, CancellationToken cancellationToken)
    {
        using var lease = await permits.AcquireAsync();
        return await inner.CreateAsync(author, cancellationToken);
    }

    public async Task<Author?> GetAsync(long id, CancellationToken cancellationToken)
    {
        using var lease = await permits.AcquireAsync();
        return await inner.GetAsync(id, cancellationToken);
    }

    public async Task<IReadOnlyList<Author>> GetPageAsync(int offset, int limit, CancellationToken cancellationToken)
    {
        using var lease = await permits.AcquireAsync();
        return await inner.GetPageAsync(offset, limit, cancellationToken);
    }

    public async Task<Author?> UpdateAsync(Author author, CancellationToken cancellationToken)
    {
        using var lease = await permits.AcquireAsync();
        return await inner.UpdateAsync(author, cancellationToken);
    }

    public async Task<bool> DeleteAsync(long id, CancellationToken cancellationToken)
    {
        using var lease = await permits.AcquireAsync();
        return await inner.DeleteAsync(id, cancellationToken);
    }
}
