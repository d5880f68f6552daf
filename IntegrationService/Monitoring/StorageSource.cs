namespace IntegrationService.Monitoring;

/// <summary>Where a route names its storage architecture.</summary>
internal enum StorageSource
{
    /// <summary>It has none (health, /storages).</summary>
    None,

    /// <summary><c>?storage=</c>, the default when absent.</summary>
    Query,

    /// <summary><c>?storage=</c>, the key-value default when absent.</summary>
    KvQuery,

    /// <summary>The <c>{queue}</c> route value.</summary>
    QueueRoute,
}
