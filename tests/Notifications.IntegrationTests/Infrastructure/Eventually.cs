namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>Waits for a condition on a real service, polling; the timeout is only a failure guard.</summary>
internal static class Eventually
{
    public static async Task<T> WaitAsync<T>(Func<Task<T>> probe, Func<T, bool> done, TimeSpan timeout, string what)
    {
        var deadline = DateTime.UtcNow + timeout;
        T last = await probe();
        while (!done(last))
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException($"{what}: not reached within {timeout}; last value {last}");
            }

            await Task.Delay(100);
            last = await probe();
        }

        return last;
    }
}
