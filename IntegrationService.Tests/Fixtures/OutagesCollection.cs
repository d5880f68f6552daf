namespace IntegrationService.Tests.Fixtures;

/// <summary>Tests that stop and start shared servers; never run beside other tests.</summary>
[CollectionDefinition("Outages", DisableParallelization = true)]
public sealed class OutagesCollection;
