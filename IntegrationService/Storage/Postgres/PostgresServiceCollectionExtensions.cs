using Dapper;
using IntegrationService.Items;
using Microsoft.Extensions.Options;
using Npgsql;

namespace IntegrationService.Storage.Postgres;

public static class PostgresServiceCollectionExtensions
{
    public const string Description = "PostgreSQL 15 alone";
    public const string Durability = "synchronous_commit=on, fsync=on: every acknowledged write is flushed to the WAL on disk.";

    public static IServiceCollection AddPostgresStorage(this IServiceCollection services)
    {
        DefaultTypeMap.MatchNamesWithUnderscores = true;
        services.AddOptions<PostgresOptions>().BindConfiguration("Postgres").ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton(sp => CreateDataSource(sp.GetRequiredService<IOptions<PostgresOptions>>().Value));
        services.AddSingleton<PostgresDatabase>();
        services.AddSingleton<PostgresAuthorStore>();
        services.AddSingleton<PostgresItemStore>();
        services.AddSingleton<ILocationCatalog, PostgresLocationCatalog>();
        services.AddSingleton<IItemDataLoader, PostgresItemDataLoader>();
        services.AddSingleton<IBackendHealthCheck, PostgresHealthCheck>();
        services.AddHostedService<PostgresSchemaInitializer>();
        services.AddSingleton(sp => new StorageArchitecture("postgres", Description, Durability,
            sp.GetRequiredService<PostgresAuthorStore>(), sp.GetRequiredService<PostgresItemStore>()));
        return services;
    }

    /// <summary>
    /// One data source for the process. Repeated SQL is prepared automatically; every
    /// connect and command has a timeout (0 would mean forever).
    /// </summary>
    private static NpgsqlDataSource CreateDataSource(PostgresOptions options)
    {
        var connectionString = new NpgsqlConnectionStringBuilder(options.ConnectionString)
        {
            Pooling = true,
            MaxPoolSize = options.MaxPoolSize,
            Timeout = options.ConnectTimeoutSeconds,
            CommandTimeout = options.CommandTimeoutSeconds,
            MaxAutoPrepare = 32,
            AutoPrepareMinUsages = 2,
            NoResetOnClose = true,
            ApplicationName = "IntegrationService",
        };
        return new NpgsqlDataSourceBuilder(connectionString.ConnectionString).Build();
    }
}
