using System.Text.Json;
using System.Text.Json.Serialization;
using IntegrationService.Authors;
using IntegrationService.Items;
using IntegrationService.Kv;
using IntegrationService.Queues;

namespace IntegrationService.Http;

/// <summary>Source-generated serializers for the hot-path types (no reflection per request).</summary>
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web, Converters = [typeof(UtcDateTimeConverter)])]
[JsonSerializable(typeof(Author))]
[JsonSerializable(typeof(IReadOnlyList<Author>))]
[JsonSerializable(typeof(Location))]
[JsonSerializable(typeof(IReadOnlyList<Location>))]
[JsonSerializable(typeof(Location[]))]
[JsonSerializable(typeof(ReplaceLocationsRequest))]
[JsonSerializable(typeof(OkResponse))]
[JsonSerializable(typeof(ReadinessReport))]
[JsonSerializable(typeof(QueueWriteResponse))]
[JsonSerializable(typeof(QueueDepthResponse))]
[JsonSerializable(typeof(KvStatusResponse))]
[JsonSerializable(typeof(IEnumerable<StorageDescription>))]
public sealed partial class ApiJsonContext : JsonSerializerContext;
