using IntegrationService.Http;
using Microsoft.AspNetCore.Mvc.ModelBinding.Metadata;
using IntegrationService.Storage;
using IntegrationService.Storage.Postgres;
using IntegrationService.Storage.Redis;
using IntegrationService.Storage.Tarantool;

namespace IntegrationService;

/// <summary>The service's registrations, read top to bottom like a table of contents.</summary>
public static class Extensions
{
    /// <summary>Every storage backend and the registry that selects among them.</summary>
    public static IHostApplicationBuilder AddStorage(this IHostApplicationBuilder builder)
    {
        builder.Services.AddOptions<StorageOptions>().BindConfiguration("Storage").ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddPostgresStorage();
        builder.Services.AddRedisStorage();
        builder.Services.AddTarantoolStorage();
        builder.Services.AddSingleton<StorageRegistry>();
        return builder;
    }

    /// <summary>Controllers, JSON, ProblemDetails, Swagger.</summary>
    public static IHostApplicationBuilder AddApi(this IHostApplicationBuilder builder)
    {
        builder.Services.AddProblemDetails();
        builder.Services.AddExceptionHandler<ProblemExceptionHandler>();
        // Validation errors name fields as the JSON does ("age", not "Age").
        builder.Services.AddControllers(options => options.ModelMetadataDetailsProviders.Add(new SystemTextJsonValidationMetadataProvider()))
            // Named explicitly: when the tests host the service, the entry assembly is the test runner.
            .AddApplicationPart(typeof(Extensions).Assembly)
            .AddJsonOptions(options =>
        {
            options.JsonSerializerOptions.TypeInfoResolverChain.Insert(0, ApiJsonContext.Default);
            options.JsonSerializerOptions.Converters.Add(new UtcDateTimeConverter());
        });
        builder.Services.ConfigureHttpJsonOptions(options =>
            options.SerializerOptions.TypeInfoResolverChain.Insert(0, ApiJsonContext.Default));
        builder.Services.AddEndpointsApiExplorer();
        builder.Services.AddSwaggerGen(options =>
        {
            options.SwaggerDoc("v1", new() { Title = "IntegrationService", Version = "v1", Description = "One CRUD API over several storage architectures; choose one per request with ?storage=." });
            var xmlDocs = Path.Combine(AppContext.BaseDirectory, $"{typeof(Extensions).Assembly.GetName().Name}.xml");
            if (File.Exists(xmlDocs)) options.IncludeXmlComments(xmlDocs);
            options.OperationFilter<StorageParameterFilter>();
        });
        // Request logging on the hot path costs throughput; warnings and errors still appear.
        builder.Logging.AddFilter("Microsoft.AspNetCore", LogLevel.Warning);
        return builder;
    }

    public static WebApplication MapApi(this WebApplication app)
    {
        app.UseExceptionHandler();
        app.UseStatusCodePages();
        app.UseSwagger();
        app.UseSwaggerUI();
        app.MapControllers();
        app.MapGet("/health", HealthEndpoint.HandleAsync).WithName("Health").WithTags("Service")
            .WithSummary("200 when every backend answers a ping within 2 s, else 503; JSON per backend.");
        app.MapGet("/storages", StoragesEndpoint.Handle).WithName("Storages").WithTags("Service")
            .WithSummary("The storage architectures, what each serves and its durability settings.");
        app.MapGet("/", () => Results.Redirect("/swagger")).ExcludeFromDescription();
        return app;
    }
}
