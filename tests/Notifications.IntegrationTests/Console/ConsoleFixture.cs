namespace Notifications.IntegrationTests.WebConsole;

/// <summary>One console (and its provider) for the tests of a class: each start costs a process and a broker topology.</summary>
public sealed class ConsoleFixture : IAsyncLifetime
{
    private ConsoleHost? _console;

    internal ConsoleHost Console => _console ?? throw new InvalidOperationException("not started");

    public async Task InitializeAsync() => _console = await ConsoleHost.StartAsync();

    public async Task DisposeAsync()
    {
        if (_console is not null)
        {
            await _console.DisposeAsync();
        }
    }
}
