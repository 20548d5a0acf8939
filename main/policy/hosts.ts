// The host patterns live in common/ so the egress proxy in executor/ (which imports nothing from main/)
// and the classifier judge hosts with the same functions.
export * from '../../common/hosts';
