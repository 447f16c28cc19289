namespace Notifications.Shared.Messaging;

/// <summary>
/// An exchange or queue a worker needs is not declared yet: the producer declares nothing (its broker user may not),
/// it waits for a consumer to declare the topology (<see cref="RabbitTopology.CheckDeclaredAsync"/>).
/// </summary>
public sealed class TopologyMissingException : Exception
{
    /// <summary>A missing topology, no details.</summary>
    public TopologyMissingException()
    {
    }

    /// <summary>A missing topology: what is missing.</summary>
    public TopologyMissingException(string message)
        : base(message)
    {
    }

    /// <summary>A missing topology: what is missing, and the broker's NOT_FOUND.</summary>
    public TopologyMissingException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
