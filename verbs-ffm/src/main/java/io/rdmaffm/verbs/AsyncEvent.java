package io.rdmaffm.verbs;

/**
 * One async event of a device ({@code struct ibv_async_event}), already acknowledged.
 *
 * @param type        the IBV_EVENT_* name without prefix, e.g. PORT_ACTIVE, QP_FATAL, SRQ_LIMIT_REACHED
 * @param code        the IBV_EVENT_* value
 * @param description ibv_event_type_str's text
 * @param portNumber  for port events, else 0
 * @param elementAddress the native address of the CQ/QP/SRQ concerned, for element events, else 0
 */
public record AsyncEvent(String type, int code, String description, int portNumber, long elementAddress) {
}
