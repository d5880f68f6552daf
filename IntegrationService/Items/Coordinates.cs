namespace IntegrationService.Items;

/// <summary>X is the longitude in [-180, 180], Y the latitude in [-90, 90].</summary>
public sealed record Coordinates(double X, double Y);
