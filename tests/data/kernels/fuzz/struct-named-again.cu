// A struct named again after its definition, by its typedef's name or as
// "struct X;", was printed with its fields once more: the printed file
// then defined it twice.
__global__ void c(){};typedef struct{}S;S;
struct S2 { int b; };
struct S2;
