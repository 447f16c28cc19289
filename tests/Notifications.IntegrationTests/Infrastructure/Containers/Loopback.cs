using Docker.DotNet.Models;

namespace Notifications.IntegrationTests.Infrastructure.Containers;

/// <summary>
/// Containers' ports are published on 127.0.0.1 only, and the tests reach them there. Testcontainers
/// publishes on every interface by default and, when the tests themselves run inside a container, names
/// the Docker bridge's gateway as the host: neither is wanted on a machine whose tests talk to loopback only.
/// </summary>
internal static class Loopback
{
    public const string Host = "127.0.0.1";

    /// <summary>For WithCreateParameterModifier: every published port bound to 127.0.0.1.</summary>
    public static void PublishOnly(CreateContainerParameters parameters)
    {
        foreach (var bindings in parameters.HostConfig?.PortBindings?.Values ?? [])
        {
            foreach (var binding in bindings)
            {
                binding.HostIP = Host;
            }
        }
    }
}
