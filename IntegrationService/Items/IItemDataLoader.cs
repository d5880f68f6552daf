namespace IntegrationService.Items;

/// <summary>
/// Bulk-loads the item data set into one backend (every architecture that backend serves), for
/// <c>script/services seed</c>. Idempotent: running it twice leaves the same data.
/// </summary>
public interface IItemDataLoader
{
    /// <summary>The backend loaded, for progress output, e.g. "postgres".</summary>
    string Name { get; }

    Task LoadAsync(ItemDataSet dataSet, CancellationToken cancellationToken);
}
