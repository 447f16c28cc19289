using Notifications.IntegrationTests.Infrastructure.Containers;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// Every integration test talks to the same real services; they run one at a time so that counts at
/// the SMTP server and the tables belong to one test, and so two cores are not shared by two pipelines.
/// </summary>
[CollectionDefinition("services", DisableParallelization = true)]
public sealed class ServicesCollection : ICollectionFixture<ContainerLifetime>;
