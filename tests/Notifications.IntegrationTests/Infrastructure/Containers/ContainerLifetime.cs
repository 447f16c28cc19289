namespace Notifications.IntegrationTests.Infrastructure.Containers;

/// <summary>
/// The services collection's fixture: when its last test is done, the containers the run started are
/// removed (the collection runs after every parallel one). Nothing is started here: a container starts
/// on first use, so a run against NOTIFICATIONS_TEST_* endpoints never touches Docker.
/// </summary>
public sealed class ContainerLifetime : IAsyncLifetime
{
    public Task InitializeAsync() => Task.CompletedTask;

    public Task DisposeAsync() => ContainerServices.RemoveAllAsync();
}
