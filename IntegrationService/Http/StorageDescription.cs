namespace IntegrationService.Http;

public sealed record StorageDescription(string Name, string Description, string Durability, string[] Serves, bool IsDefault);
